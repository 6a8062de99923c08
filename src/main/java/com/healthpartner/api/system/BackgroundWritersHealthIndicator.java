package com.healthpartner.api.system;

import java.time.Instant;
import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code backgroundWriters} in {@code /actuator/health} and its readiness group:
 * {@code UP} while every {@link PeriodicFlush} (the audit trail of reads, the keys' last
 * use) writes; {@code DOWN}, naming the failing writers and since when, while one cannot.
 * Each keeps what it gathered and tries again every period by itself; the log says when
 * it stopped and when it writes again.
 */
@Component
class BackgroundWritersHealthIndicator implements ReactiveHealthIndicator {

	private final List<PeriodicFlush> writers;

	BackgroundWritersHealthIndicator(List<PeriodicFlush> writers) {
		this.writers = writers;
	}

	@Override
	public Mono<Health> health() {
		return Mono.fromSupplier(() -> {
			Health.Builder health = Health.up();
			for (PeriodicFlush writer : this.writers) {
				Instant since = writer.failingSince();
				if (since != null) {
					health.down().withDetail(writer.getClass().getSimpleName(), "failing since " + since);
				}
			}
			return health.build();
		});
	}

}
