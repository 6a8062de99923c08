package com.healthpartner.api.system;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.Epoll;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.pool.PoolMetrics;
import io.r2dbc.postgresql.PostgresqlConnectionFactoryProvider;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;
import io.r2dbc.spi.Option;
import reactor.netty.resources.LoopResources;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.r2dbc.autoconfigure.ConnectionFactoryOptionsBuilderCustomizer;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * The web server's event loops and the database connections they use. The server runs on
 * {@code APP_EVENT_LOOPS} loops (default: one per CPU core), and each loop gets a
 * connection pool of its own ({@link EventLoopPools}): a request never waits for another
 * thread to send its query or to read its rows. Connections ask PostgreSQL for binary
 * results (times and ids arrive as numbers, not text to parse) and send times, ids and
 * arrays in binary ({@link BinaryInstants}, {@link BinaryUuids}, {@link BinaryArrays}),
 * can read a text as its UTF-8 bytes ({@link TextBytes}) and a list page's records as one
 * value ({@link PositionedViews}), and every wait on the database is bounded so that an
 * outage is a quick 503 instead of a hanging request.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

	/**
	 * Serves threads that are no event loop: start-up, periodic writers, health checks.
	 */
	static final int SHARED_POOL_SIZE = 4;

	@Bean
	ConnectionFactoryOptionsBuilderCustomizer boundedWaits(DatabaseProperties database) {
		return (options) -> options.option(ConnectionFactoryOptions.CONNECT_TIMEOUT, database.connectTimeout())
			.option(PostgresqlConnectionFactoryProvider.STATEMENT_TIMEOUT, database.statementTimeout())
			.option(PostgresqlConnectionFactoryProvider.TCP_KEEPALIVE, true)
			.option(PostgresqlConnectionFactoryProvider.FORCE_BINARY, true)
			.option(PostgresqlConnectionFactoryProvider.EXTENSIONS, List.of(new BinaryInstants(), new BinaryUuids(),
					new BinaryArrays(), new TextBytes(), new PositionedViews.Registrar()));
	}

	/**
	 * Every statement runs its generic plan, planned once per connection. Left to itself
	 * (plan_cache_mode {@code auto}) PostgreSQL plans the first five executions of a
	 * statement on a connection for their values, and then picks between its generic plan
	 * and planning anew by comparing estimated costs, a choice that hangs on the
	 * statistics of the moment and on the connection's history (measured: docs/design.md,
	 * Generic plans). The statements are written for generic plans: filters a caller did
	 * not give are left out of the text ({@link Filters}, the list pages' variants),
	 * never bound as null.
	 */
	@Bean
	ConnectionFactoryOptionsBuilderCustomizer genericPlans() {
		return (options) -> options.option(PostgresqlConnectionFactoryProvider.OPTIONS,
				Map.of("plan_cache_mode", "force_generic_plan"));
	}

	/**
	 * The web server's loops (replacing Reactor Netty's default of at least four, which
	 * on a small machine only adds threads that take turns on the same cores). They run
	 * on io_uring where the kernel offers it (Reactor Netty's choice once Netty's
	 * io_uring transport is on the class path), else on epoll; {@code APP_IO_URING=false}
	 * keeps them on epoll.
	 */
	@Bean
	@ConditionalOnMissingBean
	ReactorResourceFactory reactorResourceFactory(@Value("${app.event-loops:0}") int eventLoops,
			@Value("${app.io-uring:true}") boolean ioUring) {
		if (eventLoops < 0 || eventLoops > 256) {
			throw new IllegalArgumentException("APP_EVENT_LOOPS must be between 1 and 256 (0: one per CPU core)");
		}
		int loops = (eventLoops > 0) ? eventLoops : Runtime.getRuntime().availableProcessors();
		ReactorResourceFactory resources = new ReactorResourceFactory();
		resources.setUseGlobalResources(false);
		if (!ioUring && Epoll.isAvailable()) {
			resources.setLoopResourcesSupplier(() -> GivenLoops.epoll("reactor-http-epoll", loops));
		}
		else {
			resources.setLoopResourcesSupplier(() -> LoopResources.create("reactor-http", loops, true));
		}
		return resources;
	}

	@Bean(destroyMethod = "dispose")
	EventLoopPools connectionFactory(R2dbcProperties r2dbc,
			ObjectProvider<ConnectionFactoryOptionsBuilderCustomizer> customizers, ReactorResourceFactory resources) {
		ConnectionFactoryOptions options = options(r2dbc, customizers);
		R2dbcProperties.Pool pool = r2dbc.getPool();
		List<EventLoop> loops = new ArrayList<>();
		resources.getLoopResources()
			.onServer(LoopResources.hasNativeSupport())
			.forEach((loop) -> loops.add((EventLoop) loop));
		int perLoop = Math.max(2, (pool.getMaxSize() + loops.size() - 1) / Math.max(1, loops.size()));
		ConnectionFactory driver = ConnectionFactories.get(options);
		ConnectionPool shared = new ConnectionPool(configuration(driver, pool, "shared",
				Math.min(pool.getInitialSize(), SHARED_POOL_SIZE), SHARED_POOL_SIZE));
		return new EventLoopPools(loops, (loop) -> poolOfLoop(loop, options, pool, perLoop), shared, driver);
	}

	/** The pool of {@code loop}: up to {@code size} connections, served by that loop. */
	private static ConnectionPool poolOfLoop(EventLoop loop, ConnectionFactoryOptions options,
			R2dbcProperties.Pool pool, int size) {
		ConnectionFactory driver = ConnectionFactories.get(options.mutate()
			.option(PostgresqlConnectionFactoryProvider.LOOP_RESOURCES, GivenLoops.of(loop))
			.build());
		return new ConnectionPool(
				configuration(driver, pool, "loop-" + Integer.toHexString(System.identityHashCode(loop)), 0, size));
	}

	/** {@code r2dbc_pool_*}: the figures of all pools together. */
	@Bean
	MeterBinder connectionPoolMetrics(EventLoopPools pools) {
		Map<String, java.util.function.ToIntFunction<PoolMetrics>> figures = Map.of("acquired",
				PoolMetrics::acquiredSize, "allocated", PoolMetrics::allocatedSize, "idle", PoolMetrics::idleSize,
				"pending", PoolMetrics::pendingAcquireSize, "max.allocated", PoolMetrics::getMaxAllocatedSize);
		return (registry) -> figures
			.forEach((name, figure) -> Gauge.builder("r2dbc.pool." + name, pools, (all) -> all.total(figure))
				.tag("name", "connectionFactory")
				.register(registry));
	}

	private static ConnectionFactoryOptions options(R2dbcProperties r2dbc,
			ObjectProvider<ConnectionFactoryOptionsBuilderCustomizer> customizers) {
		if (r2dbc.getUrl() == null) {
			throw new IllegalStateException("SPRING_R2DBC_URL must be set (the PostgreSQL to use)");
		}
		// the pools are ours: a pooling URL names the driver it would have pooled
		ConnectionFactoryOptions.Builder options = ConnectionFactoryOptions
			.parse(r2dbc.getUrl().replaceFirst("^r2dbc:pool:", "r2dbc:"))
			.mutate();
		if (r2dbc.getUsername() != null) {
			options.option(ConnectionFactoryOptions.USER, r2dbc.getUsername());
		}
		if (r2dbc.getPassword() != null && !r2dbc.getPassword().isEmpty()) {
			options.option(ConnectionFactoryOptions.PASSWORD, r2dbc.getPassword());
		}
		r2dbc.getProperties().forEach((name, value) -> options.option(Option.valueOf(name), value));
		customizers.orderedStream().forEach((customizer) -> customizer.customize(options));
		return options.build();
	}

	private static ConnectionPoolConfiguration configuration(ConnectionFactory factory, R2dbcProperties.Pool pool,
			String name, int initialSize, int maxSize) {
		ConnectionPoolConfiguration.Builder builder = ConnectionPoolConfiguration.builder(factory)
			.name(name)
			.initialSize(initialSize)
			.maxSize(maxSize)
			.maxIdleTime(pool.getMaxIdleTime())
			.maxAcquireTime(pool.getMaxAcquireTime())
			.maxCreateConnectionTime(pool.getMaxCreateConnectionTime())
			.validationDepth(pool.getValidationDepth())
			.acquireRetry(pool.getAcquireRetry());
		if (pool.getMaxLifeTime() != null) {
			builder.maxLifeTime(pool.getMaxLifeTime());
		}
		if (pool.getMaxValidationTime() != null) {
			builder.maxValidationTime(pool.getMaxValidationTime());
		}
		if (pool.getValidationQuery() != null) {
			builder.validationQuery(pool.getValidationQuery());
		}
		return builder.build();
	}

}
