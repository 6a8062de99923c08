package com.healthpartner.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactoryOptions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;
import redis.embedded.RedisServer;

import org.springframework.r2dbc.core.DatabaseClient;

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

	/**
	 * A client of the shared test database of its own, for tests that check what a
	 * separate service JVM stored.
	 */
	public static DatabaseClient databaseClient() {
		Database db = postgres();
		ConnectionFactoryOptions options = ConnectionFactoryOptions.parse(db.r2dbcUrl())
			.mutate()
			.option(ConnectionFactoryOptions.USER, db.username())
			.option(ConnectionFactoryOptions.PASSWORD, db.password())
			.build();
		return DatabaseClient.create(ConnectionFactories.get(options));
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

	/**
	 * A PostgreSQL of its own that a test may stop and start again (same address, same
	 * data), for tests of database outages; the shared one is never stopped.
	 */
	public static RestartableDatabase restartablePostgres() {
		return dockerAvailable() ? new RestartableContainer() : new RestartableEmbedded();
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

	public static int freePort() {
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

	/** A PostgreSQL that can be stopped and started again at the same address. */
	public interface RestartableDatabase extends AutoCloseable {

		Database database();

		void stop();

		void start();

		@Override
		void close();

	}

	/** zonky's PostgreSQL on a fixed data folder and port: stopping keeps both. */
	private static final class RestartableEmbedded implements RestartableDatabase {

		private final Path dataDirectory;

		private final int port = freePort();

		private EmbeddedPostgres server;

		RestartableEmbedded() {
			try {
				this.dataDirectory = Files.createTempDirectory("restartable-postgres");
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			start();
		}

		@Override
		public Database database() {
			return new Database("localhost", this.port, "postgres", "postgres", "", null);
		}

		@Override
		public synchronized void start() {
			try {
				this.server = EmbeddedPostgres.builder()
					.setDataDirectory(this.dataDirectory)
					.setCleanDataDirectory(false)
					.setPort(this.port)
					.start();
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Cannot start the restartable PostgreSQL", ex);
			}
		}

		@Override
		public synchronized void stop() {
			if (this.server != null) {
				try {
					this.server.close();
				}
				catch (IOException ex) {
					throw new UncheckedIOException("Cannot stop the restartable PostgreSQL", ex);
				}
				this.server = null;
			}
		}

		@Override
		public void close() {
			stop();
			try (Stream<Path> files = Files.walk(this.dataDirectory)) {
				files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
			catch (IOException ex) {
				// a temporary folder; the operating system cleans it eventually
			}
		}

	}

	/**
	 * A PostgreSQL container bound to a fixed host port, stopped and started in place
	 * (its data stays in the container).
	 */
	private static final class RestartableContainer implements RestartableDatabase {

		private final int port = freePort();

		private final PostgreSQLContainer container = new PostgreSQLContainer("postgres:15-alpine");

		RestartableContainer() {
			this.container.setPortBindings(List.of(this.port + ":5432"));
			this.container.start();
		}

		@Override
		public Database database() {
			return new Database(this.container.getHost(), this.port, this.container.getDatabaseName(),
					this.container.getUsername(), this.container.getPassword(), null);
		}

		@Override
		public void stop() {
			this.container.getDockerClient().stopContainerCmd(this.container.getContainerId()).exec();
		}

		@Override
		public void start() {
			this.container.getDockerClient().startContainerCmd(this.container.getContainerId()).exec();
			Database db = database();
			// the container's start-up log is already there from the first start: wait
			// for connections instead
			Mono.fromCallable(() -> {
				DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password()).close();
				return true;
			}).retryWhen(Retry.fixedDelay(300, Duration.ofMillis(100))).block(Duration.ofSeconds(60));
		}

		@Override
		public void close() {
			this.container.stop();
		}

	}

}
