package com.healthpartner.api.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import com.healthpartner.api.HealthPartnerApplication;

/**
 * The service in a JVM of its own, with JVM options of the test's choosing (a small heap,
 * for instance), on the shared test database. Its log goes to {@code target/<name>.log}.
 */
public final class SeparateJvmInstance implements AutoCloseable {

	private final Process process;

	private final String baseUrl;

	private SeparateJvmInstance(Process process, String baseUrl) {
		this.process = process;
		this.baseUrl = baseUrl;
	}

	/**
	 * Launches the JVM and returns at once; {@link #awaitReady()} waits until it serves
	 * (a test may prepare data meanwhile).
	 */
	public static SeparateJvmInstance launch(String name, List<String> jvmOptions) {
		int port = TestInfrastructure.freePort();
		List<String> command = new ArrayList<>();
		command.add(Path.JAVA);
		command.addAll(jvmOptions);
		command.add("-cp");
		command.add(Path.testClassPath());
		command.add(HealthPartnerApplication.class.getName());
		return run(name, port, command);
	}

	/**
	 * Launches the packaged service ({@code target/health-partner-api.jar}, built by
	 * {@code package} before the integration tests run) on {@code port} and the shared
	 * test database, and returns at once.
	 */
	public static SeparateJvmInstance launchJar(String name, int port, List<String> jvmOptions) {
		File jar = new File("target", "health-partner-api.jar");
		if (!jar.isFile()) {
			throw new IllegalStateException(jar + " is missing: run the integration tests after package");
		}
		List<String> command = new ArrayList<>();
		command.add(Path.JAVA);
		command.addAll(jvmOptions);
		command.add("-jar");
		command.add(jar.getPath());
		return run(name, port, command);
	}

	/**
	 * Launches the service as {@code ./mvnw spring-boot:run} runs it: no database
	 * settings, so it starts its embedded PostgreSQL, with its data in
	 * {@code dataDirectory}; returns at once.
	 */
	public static SeparateJvmInstance launchDevelopment(String name, java.nio.file.Path dataDirectory) {
		int port = TestInfrastructure.freePort();
		List<String> command = new ArrayList<>(
				List.of(Path.JAVA, "-cp", Path.testClassPath(), HealthPartnerApplication.class.getName()));
		Map<String, Object> properties = new HashMap<>(Map.of("server.port", port, "app.dev.data-dir", dataDirectory,
				"app.admin-token", IntegrationTest.ADMIN_TOKEN, "app.secret-encryption-key",
				IntegrationTest.ENCRYPTION_KEY, "app.plans", IntegrationTest.PLANS));
		return start(name, port, command, properties);
	}

	/**
	 * Runs {@code command} with the shared test database's settings and {@code port}, its
	 * output in {@code target/<name>.log}; returns at once.
	 */
	private static SeparateJvmInstance run(String name, int port, List<String> command) {
		Map<String, Object> properties = ServiceInstance.properties(TestInfrastructure.postgres());
		properties.put("server.port", port);
		return start(name, port, command, properties);
	}

	private static SeparateJvmInstance start(String name, int port, List<String> command,
			Map<String, Object> properties) {
		properties.forEach((key, value) -> command.add("--" + key + "=" + value));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(new File("target", name + ".log"))
				.start();
			return new SeparateJvmInstance(process, "http://localhost:" + port);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start the service JVM " + name, ex);
		}
	}

	/**
	 * Kills the JVM without warning (SIGKILL on Linux): no shutdown hook, no graceful
	 * stop, nothing flushed.
	 */
	public void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(20, TimeUnit.SECONDS);
	}

	public String baseUrl() {
		return this.baseUrl;
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	public SeparateJvmInstance awaitReady() {
		HttpClient http = HttpClient.newHttpClient();
		HttpRequest readiness = HttpRequest.newBuilder(URI.create(this.baseUrl + "/actuator/health/readiness"))
			.timeout(Duration.ofSeconds(2))
			.build();
		Mono.fromCallable(() -> {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("The service JVM exited with " + this.process.exitValue());
			}
			return http.send(readiness, HttpResponse.BodyHandlers.discarding()).statusCode();
		})
			.filter((status) -> status == 200)
			.repeatWhenEmpty(600, (attempts) -> attempts.delayElements(Duration.ofMillis(100)))
			.retryWhen(Retry.fixedDelay(600, Duration.ofMillis(100))
				.filter((failure) -> !(failure instanceof IllegalStateException)))
			.switchIfEmpty(Mono.error(() -> new IllegalStateException("The service JVM did not get ready")))
			.block(Duration.ofSeconds(90));
		return this;
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

	private static final class Path {

		static final String JAVA = ProcessHandle.current()
			.info()
			.command()
			.orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");

		/** Surefire runs tests from a manifest-only jar; it names the real class path. */
		static String testClassPath() {
			String surefire = System.getProperty("surefire.test.class.path");
			return (surefire != null && !surefire.isBlank()) ? surefire : System.getProperty("java.class.path");
		}

	}

}
