package com.healthpartner.api.access;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import io.r2dbc.postgresql.api.Notification;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Wrapped;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Keeps one dedicated connection (outside the pool) that {@code LISTEN}s on
 * {@code access_changed}: revocations, suspensions, plan and scope changes made on any
 * instance evict this instance's cached keys. The key cache is trusted only while that
 * holds: from the moment the notifications are subscribed and {@code LISTEN} is done,
 * until the connection fails. A connection that died silently (no FIN, no RST: a
 * half-open connection) is found by a {@code select 1} on it every 15 s that must answer
 * within 3 s. It reconnects by itself after a failure or a database outage.
 */
@Component
class AccessChangeListener implements SmartLifecycle {

	static final String CHANNEL = "access_changed";

	static final Duration CHECK_EVERY = Duration.ofSeconds(15);

	static final Duration CHECK_TIMEOUT = Duration.ofSeconds(3);

	/** Connecting (TCP and PostgreSQL's start-up) must not hang either. */
	static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

	private static final Log log = LogFactory.getLog(AccessChangeListener.class);

	private final ConnectionFactory connections;

	private final KeyCache cache;

	private final Duration checkEvery;

	private final Duration checkTimeout;

	private volatile Disposable subscription;

	private volatile Instant lostSince;

	@Autowired
	AccessChangeListener(ConnectionFactory connectionFactory, KeyCache cache) {
		this(connectionFactory, cache, CHECK_EVERY, CHECK_TIMEOUT);
	}

	AccessChangeListener(ConnectionFactory connectionFactory, KeyCache cache, Duration checkEvery,
			Duration checkTimeout) {
		this.connections = unwrap(connectionFactory);
		this.cache = cache;
		this.checkEvery = checkEvery;
		this.checkTimeout = checkTimeout;
	}

	@Override
	public void start() {
		this.subscription = Flux
			.usingWhen(Mono.from(this.connections.create()).timeout(CONNECT_TIMEOUT), this::listen, this::close)
			.concatWith(Mono.error(() -> new IllegalStateException("LISTEN connection closed")))
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(500))
				.maxBackoff(Duration.ofSeconds(5))
				.doBeforeRetry(this::lost))
			.subscribe(this::changed, (failure) -> log.error("Access change listener stopped", failure));
	}

	private Flux<String> listen(Connection connection) {
		PostgresqlConnection postgres = (PostgresqlConnection) connection;
		// merge subscribes in order: the notifications before LISTEN, so that nothing
		// notified once the cache is trusted can pass unseen; all of them (unbounded
		// demand, the source drops what is not requested)
		Flux<String> changes = postgres.getNotifications().mapNotNull(Notification::getParameter);
		Flux<String> listening = execute(postgres, "LISTEN " + CHANNEL).timeout(this.checkTimeout)
			.doOnSuccess((done) -> listening())
			.thenMany(alive(postgres));
		return Flux.merge(Integer.MAX_VALUE, changes, listening)
			// the connection failed, closed or was given up: announcements may be missed
			.doFinally((signal) -> this.cache.listening(false));
	}

	/**
	 * Never emits; fails when the connection does not answer a {@code select 1} in time.
	 */
	private Flux<String> alive(PostgresqlConnection postgres) {
		return Flux.interval(this.checkEvery)
			.onBackpressureDrop()
			.concatMap((tick) -> execute(postgres, "select 1").timeout(this.checkTimeout), 1)
			.thenMany(Flux.empty());
	}

	private static Mono<Void> execute(PostgresqlConnection postgres, String sql) {
		return postgres.createStatement(sql).execute().flatMap((result) -> result.getRowsUpdated()).then();
	}

	/**
	 * A dead connection may not confirm its closing: the reconnect does not wait on it.
	 */
	private Mono<Void> close(Connection connection) {
		return Mono.from(connection.close()).timeout(this.checkTimeout).onErrorResume((failure) -> Mono.empty());
	}

	private void listening() {
		this.cache.listening(true);
		Instant lost = this.lostSince;
		this.lostSince = null;
		if (lost != null) {
			log.info("The access change listener listens again (lost at " + lost + "); cached keys are trusted again");
		}
	}

	private void lost(Retry.RetrySignal signal) {
		if (this.lostSince == null) {
			this.lostSince = Instant.now();
			log.warn("The access change listener lost its connection (" + signal.failure()
					+ "); reconnecting, and until then every key is checked in the database");
		}
		else {
			log.debug("Reconnecting the access change listener: " + signal.failure());
		}
	}

	/**
	 * When the {@code LISTEN} connection was lost, or null while it listens (or before it
	 * first connected).
	 */
	Instant lostSince() {
		return this.lostSince;
	}

	private void changed(String partnerId) {
		try {
			this.cache.evict(UUID.fromString(partnerId));
		}
		catch (IllegalArgumentException ex) {
			this.cache.listening(true);
		}
	}

	@Override
	public void stop() {
		Disposable current = this.subscription;
		if (current != null) {
			current.dispose();
		}
		this.cache.listening(false);
	}

	@Override
	public boolean isRunning() {
		Disposable current = this.subscription;
		return current != null && !current.isDisposed();
	}

	private static ConnectionFactory unwrap(ConnectionFactory factory) {
		ConnectionFactory current = factory;
		while (current instanceof Wrapped<?> wrapped && wrapped.unwrap() instanceof ConnectionFactory inner) {
			current = inner;
		}
		return current;
	}

}
