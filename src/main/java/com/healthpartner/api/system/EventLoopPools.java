package com.healthpartner.api.system;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.PoolMetrics;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import io.r2dbc.spi.Wrapped;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.SmartLifecycle;

/**
 * The database connections, a pool of them per event loop of the web server. A request is
 * handled on one event loop from its first byte to its last; its queries get a connection
 * of that loop's pool, whose socket that same loop serves, so sending a query, reading
 * its rows and writing the answer never hand work to another thread (a hand-over wakes a
 * thread and costs system calls, more than the query's own work on this machine). Any
 * other thread (start-up, periodic writers, the loops of other clients and of the
 * management server) uses a shared pool: those loops are stopped by their owners at times
 * of their own, and a pool of theirs would add to the configured maximum. The web
 * server's pools are made at start, without connections; each holds up to its share of
 * the configured maximum. {@link #unwrap()} gives the driver's own factory (for the
 * {@code LISTEN} connection, outside any pool). Each connection is lent as a
 * {@link GuardedConnection}: one whose statement was given up before the database
 * answered is closed, not lent again.
 * <p>
 * Stopping the application closes the pools ({@link #stop(Runnable)}) after the web
 * server has drained its requests and the background writers have flushed, and before the
 * web server's loops stop: a connection is closed by the loop that serves it, which must
 * still run (closed later, on a loop already shut down, the close fails). Closed pools
 * stay closed.
 */
public final class EventLoopPools implements ConnectionFactory, Wrapped<ConnectionFactory>, Disposable, SmartLifecycle {

	/**
	 * Below every phase that still writes to the database (the web server's drain, the
	 * periodic flushes at {@code DEFAULT_PHASE - 3072}), above the web server's loops
	 * (0).
	 */
	private static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 8192;

	/**
	 * The longest stopping waits for a pool to close (a frozen database may not answer).
	 */
	private static final Duration CLOSE_WITHIN = Duration.ofSeconds(5);

	private static final Log log = LogFactory.getLog(EventLoopPools.class);

	private final ConnectionPool shared;

	private final ConnectionFactory driver;

	private final Map<EventExecutor, ConnectionPool> pools;

	/**
	 * {@code poolOfLoop} makes the pool of each of the web server's {@code loops} (its
	 * connections on that loop), {@code shared} serves other threads; {@code driver} is
	 * the unpooled factory.
	 */
	public EventLoopPools(List<EventLoop> loops, Function<EventLoop, ConnectionPool> poolOfLoop, ConnectionPool shared,
			ConnectionFactory driver) {
		Map<EventExecutor, ConnectionPool> pools = new LinkedHashMap<>();
		for (EventLoop loop : loops) {
			pools.put(loop, poolOfLoop.apply(loop));
		}
		this.pools = Collections.unmodifiableMap(pools);
		this.shared = shared;
		this.driver = driver;
	}

	@Override
	public Publisher<? extends Connection> create() {
		return Mono.defer(() -> poolOfThisThread().create()).flatMap(GuardedConnection::lend);
	}

	private ConnectionPool poolOfThisThread() {
		EventExecutor current = ThreadExecutorMap.currentExecutor();
		ConnectionPool pool = (current != null) ? this.pools.get(current) : null;
		return (pool != null) ? pool : this.shared;
	}

	@Override
	public ConnectionFactoryMetadata getMetadata() {
		return this.driver.getMetadata();
	}

	@Override
	public ConnectionFactory unwrap() {
		return this.driver;
	}

	/** Every pool, the shared one first. */
	public List<ConnectionPool> pools() {
		return java.util.stream.Stream.concat(java.util.stream.Stream.of(this.shared), this.pools.values().stream())
			.toList();
	}

	/**
	 * Every pool by name: {@code shared}, and each event loop's by its thread's name.
	 */
	public Map<String, ConnectionPool> named() {
		Map<String, ConnectionPool> named = new java.util.LinkedHashMap<>();
		named.put("shared", this.shared);
		this.pools.forEach((loop, pool) -> named.put(
				(loop instanceof SingleThreadEventExecutor thread) ? thread.threadProperties().name() : loop.toString(),
				pool));
		return named;
	}

	/** A figure of the pools' metrics summed over all pools. */
	public int total(ToIntFunction<PoolMetrics> metric) {
		return pools().stream().mapToInt((pool) -> pool.getMetrics().map(metric::applyAsInt).orElse(0)).sum();
	}

	/**
	 * Nothing to do: the pools are open from the start; they open connections on demand.
	 */
	@Override
	public void start() {
	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	/** Closes every pool, calling {@code callback} when all are closed (or failed to). */
	@Override
	public void stop(Runnable callback) {
		Flux.fromIterable(pools())
			.flatMap((pool) -> pool.disposeLater()
				.timeout(CLOSE_WITHIN)
				.onErrorResume(
						(failure) -> Mono.fromRunnable(() -> log.warn("Could not close a database pool", failure))))
			.doFinally((signal) -> callback.run())
			.subscribe();
	}

	/** Until the pools are closed. */
	@Override
	public boolean isRunning() {
		return !isDisposed();
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Closes every pool and waits for them: for a context that is destroyed without
	 * having been stopped (one whose start failed); after {@link #stop} there is nothing
	 * left.
	 */
	@Override
	public void dispose() {
		for (ConnectionPool pool : pools()) {
			pool.dispose();
		}
	}

	@Override
	public boolean isDisposed() {
		return this.shared.isDisposed();
	}

}
