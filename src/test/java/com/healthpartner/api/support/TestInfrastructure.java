package com.healthpartner.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import redis.embedded.RedisServer;

/**
 * The one place that decides where tests get PostgreSQL and Redis: Testcontainers
 * (PostgreSQL 15, Redis 7) when a Docker engine answers, otherwise real servers started
 * from Maven artifacts (zonky's embedded PostgreSQL 15, embedded-redis). Each is started
 * once per JVM and shared by every test, so one Spring context serves them all.
 */
public final class TestInfrastructure {

	private static Database database;

	private static Redis redis;

	private static Boolean docker;

	private TestInfrastructure() {
	}

	public static synchronized Database postgres() {
		if (database == null) {
			database = dockerAvailable() ? containerPostgres() : embeddedPostgres();
		}
		return database;
	}

	public static synchronized Redis redis() {
		if (redis == null) {
			redis = dockerAvailable() ? containerRedis() : embeddedRedis();
		}
		return redis;
	}

	/**
	 * A Redis of its own, for a test that stops and starts it (the shared one stays up
	 * for everyone else). The caller closes it.
	 */
	public static StoppableRedis dedicatedRedis() {
		return dockerAvailable() ? StoppableRedis.container() : StoppableRedis.embedded(freePort());
	}

	private static boolean dockerAvailable() {
		if (docker == null) {
			try {
				docker = DockerClientFactory.instance().isDockerAvailable();
			}
			catch (Throwable ex) {
				docker = false;
			}
		}
		return docker;
	}

	private static Database containerPostgres() {
		PostgreSQLContainer container = new PostgreSQLContainer("postgres:15-alpine");
		container.start();
		return new Database(container.getHost(), container.getMappedPort(5432), container.getDatabaseName(),
				container.getUsername(), container.getPassword(), null);
	}

	private static Database embeddedPostgres() {
		try {
			EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
			Runtime.getRuntime().addShutdownHook(new Thread(() -> {
				try {
					postgres.close();
				}
				catch (IOException ex) {
					// the JVM is going away
				}
			}));
			return new Database("localhost", postgres.getPort(), "postgres", "postgres", "", postgres);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start the embedded PostgreSQL for tests", ex);
		}
	}

	@SuppressWarnings("resource")
	private static Redis containerRedis() {
		GenericContainer<?> container = new GenericContainer<>("redis:7-alpine").withExposedPorts(6379);
		container.start();
		return new Redis(container.getHost(), container.getMappedPort(6379), null);
	}

	private static Redis embeddedRedis() {
		try {
			int port = freePort();
			RedisServer server = new RedisServer(port);
			server.start();
			Runtime.getRuntime().addShutdownHook(new Thread(() -> {
				try {
					server.stop();
				}
				catch (IOException ex) {
					// the JVM is going away
				}
			}));
			return new Redis("127.0.0.1", port, server);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start the embedded Redis for tests", ex);
		}
	}

	static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public record Database(String host, int port, String name, String username, String password,
			EmbeddedPostgres embedded) {

		public String r2dbcUrl() {
			return "r2dbc:postgresql://" + this.host + ":" + this.port + "/" + this.name;
		}

		public String jdbcUrl() {
			return "jdbc:postgresql://" + this.host + ":" + this.port + "/" + this.name;
		}

	}

	public record Redis(String host, int port, RedisServer embedded) {

		public String url() {
			return "redis://" + this.host + ":" + this.port;
		}

	}

}
