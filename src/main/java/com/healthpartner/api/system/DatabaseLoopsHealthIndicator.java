package com.healthpartner.api.system;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.spi.Connection;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code databaseLoops} in {@code /actuator/health} and its readiness group: every pool
 * of {@link EventLoopPools} (one per event loop, and the shared one) lends a connection
 * that answers {@code select 1} within the statement deadline. Spring Boot's own
 * {@code r2dbc} check asks one pool only, the one of the thread it runs on, so one event
 * loop whose connections had stopped answering left readiness {@code UP} while half of
 * the requests failed. A pool that fails is named in the log; its connection, given up,
 * is closed ({@link GuardedConnection}), so the pool heals by itself.
 */
@Component
class DatabaseLoopsHealthIndicator implements ReactiveHealthIndicator {

	private static final Log log = LogFactory.getLog(DatabaseLoopsHealthIndicator.class);

	private final EventLoopPools pools;

	private final Duration deadline;

	/** The pools that failed the last check, empty when none did. */
	private volatile List<String> failing = List.of();

	DatabaseLoopsHealthIndicator(EventLoopPools pools, DatabaseProperties database) {
		this.pools = pools;
		this.deadline = database.statementDeadline();
	}

	@Override
	public Mono<Health> health() {
		Map<String, ConnectionPool> all = this.pools.named();
		return Flux.fromIterable(all.entrySet())
			.flatMap((pool) -> answers(pool.getValue()).map((ok) -> ok ? "" : pool.getKey()))
			.filter((name) -> !name.isEmpty())
			.sort()
			.collectList()
			.map((failed) -> {
				List<String> before = this.failing;
				this.failing = failed;
				if (failed.isEmpty()) {
					if (!before.isEmpty()) {
						log.info("Every connection pool answers again");
					}
					return Health.up().withDetail("pools", all.size()).build();
				}
				if (!failed.equals(before)) {
					log.warn("Connection pools that did not answer select 1 within " + this.deadline.toMillis()
							+ " ms: " + failed);
				}
				return Health.down().withDetail("pools", all.size()).withDetail("failed", failed).build();
			});
	}

	private Mono<Boolean> answers(ConnectionPool pool) {
		return Mono.usingWhen(Mono.from(pool.create()).flatMap(GuardedConnection::lend),
				(connection) -> Flux.from(connection.createStatement("select 1").execute())
					.flatMap((result) -> result.map((row) -> 1))
					.then(Mono.just(true)),
				Connection::close)
			.timeout(this.deadline)
			.onErrorReturn(false);
	}

}
