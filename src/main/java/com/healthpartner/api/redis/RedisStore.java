package com.healthpartner.api.redis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.context.SmartLifecycle;

/**
 * The Redis shared by all instances, through one reactive Lettuce connection that is
 * opened without blocking on first use. Every command has a short time limit and a local
 * fallback: when Redis fails, the caller's fallback answers (and the failure is not
 * retried for a few seconds, so a dead Redis costs nothing per request), the state is
 * reported as degraded in health and metrics, and the next successful command ends it.
 */
public class RedisStore implements SmartLifecycle {

	static final Duration COMMAND_TIMEOUT = Duration.ofMillis(250);

	static final Duration CONNECT_TIMEOUT = Duration.ofMillis(500);

	/** The first connection also starts Lettuce's event loops: it may take longer. */
	static final Duration STARTUP_CONNECT_TIMEOUT = Duration.ofSeconds(5);

	public static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(2);

	private static final Log log = LogFactory.getLog(RedisStore.class);

	static {
		// With both of Netty's native transports on the class path (io_uring for the
		// web server's loops), Lettuce opens its socket on epoll but sets io_uring's
		// keep-alive options on it, which Netty drops with a warning at every
		// connection, so its keep-alive timings would not apply. Lettuce stays on
		// epoll alone.
		if (System.getProperty("io.lettuce.core.iouring") == null) {
			System.setProperty("io.lettuce.core.iouring", "false");
		}
	}

	private final ClientResources resources;

	private final RedisClient client;

	private final RedisURI uri;

	private final Clock clock;

	private final Counter fallbacks;

	private final AtomicReference<Mono<StatefulRedisConnection<String, String>>> connection = new AtomicReference<>();

	/** The event loops of the callers, as schedulers ({@link #callersLoop}). */
	private final Map<EventExecutor, Scheduler> loops = new ConcurrentHashMap<>();

	private volatile long retryAtMillis;

	private volatile Failure failure;

	private volatile boolean running;

	RedisStore(String url, Clock clock, MeterRegistry meters) {
		try {
			this.uri = RedisURI.create(url);
		}
		catch (IllegalArgumentException ex) {
			// the URL may hold a password: not repeated here
			throw new IllegalArgumentException("SPRING_DATA_REDIS_URL must be a redis:// or rediss:// URL");
		}
		this.clock = clock;
		// a lost connection is re-established in the background, at most 2 s apart;
		// commands meanwhile fail at once instead of queueing
		this.resources = ClientResources.builder()
			.reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS))
			.build();
		this.client = RedisClient.create(this.resources);
		this.client.setOptions(ClientOptions.builder()
			.autoReconnect(true)
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
			.timeoutOptions(TimeoutOptions.enabled(COMMAND_TIMEOUT))
			.build());
		this.fallbacks = Counter.builder("ratelimit.store.fallbacks")
			.description("Decisions taken from this instance's memory because Redis could not be used")
			.register(meters);
		Gauge.builder("ratelimit.store.degraded", this, (store) -> store.degraded() ? 1 : 0)
			.description("1 while Redis cannot be used and limits are kept per instance, otherwise 0")
			.register(meters);
	}

	/**
	 * Runs a command on Redis, or the fallback when Redis is failing or fails now.
	 */
	public <T> Mono<T> call(Function<RedisReactiveCommands<String, String>, Mono<T>> command,
			Supplier<Mono<T>> fallback) {
		return execute(command).onErrorResume((error) -> {
			this.fallbacks.increment();
			return fallback.get();
		});
	}

	/** Lettuce's resources: its event loops (for tests). */
	ClientResources resources() {
		return this.resources;
	}

	/** Whether Redis answers now (without waiting while it is known to be failing). */
	Mono<Boolean> ping() {
		return execute((commands) -> commands.ping()).map("PONG"::equals).onErrorReturn(false);
	}

	private <T> Mono<T> execute(Function<RedisReactiveCommands<String, String>, Mono<T>> command) {
		return Mono.defer(() -> {
			if (this.clock.millis() < this.retryAtMillis) {
				return Mono.error(new IllegalStateException("Redis failed recently"));
			}
			Scheduler back = callersLoop();
			return connection().timeout(CONNECT_TIMEOUT).flatMap((connection) -> {
				if (!connection.isOpen()) {
					// Lettuce is reconnecting in the background: nothing to wait for
					return Mono.error(new IllegalStateException("Redis connection lost, reconnecting"));
				}
				Mono<T> answer = command.apply(connection.reactive()).timeout(COMMAND_TIMEOUT);
				return (back != null) ? answer.publishOn(back) : answer;
			}).doOnSuccess((result) -> succeeded()).doOnError(this::failed);
		});
	}

	/**
	 * The event loop the caller runs on, as a scheduler, or null on another thread. Redis
	 * answers on Lettuce's one event loop of the connection: a request that went on there
	 * would have all its further work (its queries, its answer) done on that one thread,
	 * for every request of the instance. It goes back to its own loop instead.
	 */
	private Scheduler callersLoop() {
		EventExecutor current = ThreadExecutorMap.currentExecutor();
		if (!(current instanceof EventLoop loop)) {
			return null;
		}
		Scheduler scheduler = this.loops.get(loop);
		return (scheduler != null) ? scheduler
				: this.loops.computeIfAbsent(loop, (key) -> Schedulers.fromExecutor(loop));
	}

	boolean degraded() {
		return this.failure != null;
	}

	Failure failure() {
		return this.failure;
	}

	private Mono<StatefulRedisConnection<String, String>> connection() {
		Mono<StatefulRedisConnection<String, String>> current = this.connection.get();
		return (current != null) ? current : connect();
	}

	private Mono<StatefulRedisConnection<String, String>> connect() {
		AtomicReference<Mono<StatefulRedisConnection<String, String>>> self = new AtomicReference<>();
		// suppressCancel: a request giving up on the connection must not abort it for
		// the others
		Mono<StatefulRedisConnection<String, String>> attempt = Mono
			.fromFuture(() -> this.client.connectAsync(StringCodec.UTF8, this.uri).toCompletableFuture(), true)
			.doOnError((error) -> this.connection.compareAndSet(self.get(), null))
			.cache();
		self.set(attempt);
		return this.connection.compareAndSet(null, attempt) ? attempt : this.connection.get();
	}

	private void succeeded() {
		if (this.failure != null) {
			log.info("Redis is reachable again: rate limits and replay checks are shared by all instances again");
			this.failure = null;
		}
	}

	private void failed(Throwable error) {
		// a wrong Redis answer (a script error) is as much a reason to fall back as a
		// dead one, and never a reason to refuse the partner's request
		this.retryAtMillis = this.clock.millis() + RETRY_AFTER_FAILURE.toMillis();
		if (this.failure == null) {
			log.warn("Redis cannot be used (" + error + "): rate limits and replay checks fall back to "
					+ "this instance's memory until it is back");
			this.failure = new Failure(this.clock.instant(), error.getClass().getSimpleName());
		}
	}

	/**
	 * Connects in the background at start, so that the first requests find the connection
	 * open; a Redis that is down at start only means the service starts degraded.
	 */
	@Override
	public void start() {
		this.running = true;
		connection().timeout(STARTUP_CONNECT_TIMEOUT)
			.flatMap((connection) -> connection.reactive().ping())
			.subscribe((pong) -> log.info("Rate limits and replay checks are shared through Redis"), (error) -> {
				failed(error);
				log.debug("Redis at start", error);
			});
	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	/**
	 * Closes the client (its connection too), then Lettuce's event loops, calling
	 * {@code callback} once they have stopped: the application finishes stopping (and
	 * shuts its logging down) only after them.
	 */
	@Override
	public void stop(Runnable callback) {
		this.running = false;
		this.client.shutdownAsync(0, 2, TimeUnit.SECONDS)
			.whenComplete((done, failure) -> this.resources.shutdown(0, 2, TimeUnit.SECONDS)
				.addListener((stopped) -> callback.run()));
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Stops after the web server has drained: in-flight requests still use Redis. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4096;
	}

	/** Since when Redis cannot be used, and the kind of failure (never its message). */
	record Failure(Instant since, String reason) {
	}

}
