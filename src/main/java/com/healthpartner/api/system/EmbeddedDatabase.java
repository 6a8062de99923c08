package com.healthpartner.api.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.SpringApplication;

/**
 * The embedded PostgreSQL of development runs. Only loaded when zonky's library is on the
 * class path (it is not in the production jar). It stops with the application context,
 * once the context has stopped (the web server drained, the last batches of audit events
 * and key-use times written, the pools closed), so no request and no batch loses its
 * database; a JVM killed without a shutdown leaves it running, and the next start stops
 * it.
 */
final class EmbeddedDatabase {

	private static final Duration LEFTOVER_STOP_WAIT = Duration.ofSeconds(15);

	private EmbeddedDatabase() {
	}

	static String start(Path dataDirectory, SpringApplication application) {
		try {
			Files.createDirectories(dataDirectory);
			stopLeftover(dataDirectory);
			EmbeddedPostgres postgres = EmbeddedPostgres.builder()
				.setDataDirectory(dataDirectory)
				.setCleanDataDirectory(false)
				// stopped by the context (below), after the last writes: zonky's own
				// shutdown hook stopped it while the context was still flushing
				.setRegisterShutdownHook(false)
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

	/**
	 * A run that was killed (not stopped) leaves its PostgreSQL running on the data
	 * folder, and the next start would fail on the lock. The first line of
	 * {@code postmaster.pid} names that server; it is asked to stop (SIGTERM: a clean
	 * shutdown) before a new one starts.
	 */
	private static void stopLeftover(Path dataDirectory) throws IOException {
		Path pidFile = dataDirectory.resolve("postmaster.pid");
		if (!Files.isRegularFile(pidFile)) {
			return;
		}
		List<String> lines = Files.readAllLines(pidFile);
		Optional<ProcessHandle> leftover = lines.isEmpty() ? Optional.empty() : parsePid(lines.get(0))
			.flatMap(ProcessHandle::of)
			.filter((process) -> process.info().command().map((command) -> command.endsWith("postgres")).orElse(false));
		if (leftover.isEmpty()) {
			return;
		}
		ProcessHandle process = leftover.get();
		CompletableFuture<ProcessHandle> exited = process.onExit();
		process.destroy();
		try {
			exited.get(LEFTOVER_STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IOException("A PostgreSQL left over from an earlier run (pid " + process.pid() + ") holds "
					+ dataDirectory + " and did not stop", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while stopping a leftover PostgreSQL", ex);
		}
	}

	private static Optional<Long> parsePid(String line) {
		try {
			return Optional.of(Long.parseLong(line.trim()));
		}
		catch (NumberFormatException ex) {
			return Optional.empty();
		}
	}

}
