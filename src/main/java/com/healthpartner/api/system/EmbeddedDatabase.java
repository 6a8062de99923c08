package com.healthpartner.api.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.SpringApplication;

/**
 * The embedded PostgreSQL of development runs. Only loaded when zonky's library is on the
 * class path (it is not in the production jar). It stops with the application context,
 * after the web server has drained, so no in-flight request loses its database.
 */
final class EmbeddedDatabase {

	private EmbeddedDatabase() {
	}

	static String start(Path dataDirectory, SpringApplication application) {
		try {
			Files.createDirectories(dataDirectory);
			EmbeddedPostgres postgres = EmbeddedPostgres.builder()
				.setDataDirectory(dataDirectory)
				.setCleanDataDirectory(false)
				.start();
			application.addInitializers((context) -> {
				if (context.getBeanFactory() instanceof DefaultSingletonBeanRegistry registry) {
					registry.registerDisposableBean("embeddedPostgres", postgres::close);
				}
			});
			return "r2dbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start the embedded PostgreSQL in " + dataDirectory, ex);
		}
	}

}
