package com.healthpartner.api.access;

import java.time.Duration;
import java.util.UUID;

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

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Keeps one dedicated connection (outside the pool) that {@code LISTEN}s on
 * {@code access_changed}: revocations, suspensions, plan and scope changes made on any
 * instance evict this instance's cached keys. It reconnects by itself after a database
 * outage.
 */
@Component
class AccessChangeListener implements SmartLifecycle {

	static final String CHANNEL = "access_changed";

	private static final Log log = LogFactory.getLog(AccessChangeListener.class);

	private final ConnectionFactory connections;

	private final KeyCache cache;

	private volatile Disposable subscription;

	AccessChangeListener(ConnectionFactory connectionFactory, KeyCache cache) {
		this.connections = unwrap(connectionFactory);
		this.cache = cache;
	}

	@Override
	public void start() {
		this.subscription = Flux.usingWhen(Mono.from(this.connections.create()), this::listen, Connection::close)
			.concatWith(Mono.error(() -> new IllegalStateException("LISTEN connection closed")))
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(500))
				.maxBackoff(Duration.ofSeconds(5))
				.doBeforeRetry((signal) -> {
					this.cache.listening(false);
					log.debug("Reconnecting the access change listener: " + signal.failure());
				}))
			.subscribe(this::changed, (failure) -> log.error("Access change listener stopped", failure));
	}

	private Flux<String> listen(Connection connection) {
		PostgresqlConnection postgres = (PostgresqlConnection) connection;
		return postgres.createStatement("LISTEN " + CHANNEL)
			.execute()
			.flatMap((result) -> result.getRowsUpdated())
			.thenMany(Flux.defer(() -> {
				this.cache.listening(true);
				return postgres.getNotifications();
			}))
			.mapNotNull((notification) -> notification.getParameter());
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
