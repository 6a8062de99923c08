package com.healthpartner.api.records;

import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code sharedStatements} in {@code /actuator/health} and its readiness group:
 * {@code UP} while every lane of the write and page batches ({@link SharedStatements})
 * moves, that is no statement has outlived twice its deadline (its own, then its
 * requests' run again alone) by more than a second; {@code DOWN}, naming what the stuck
 * lanes serve, otherwise. The deadline ends every statement, so a stuck lane means its
 * event loop no longer runs its timers.
 */
@Component
class SharedStatementsHealthIndicator implements ReactiveHealthIndicator {

	@Override
	public Mono<Health> health() {
		return Mono.fromSupplier(() -> {
			List<String> stuck = SharedStatements.stuck();
			return stuck.isEmpty() ? Health.up().build() : Health.down().withDetail("stuck", stuck).build();
		});
	}

}
