package com.healthpartner.api.idempotency;

import java.time.Clock;
import java.time.Duration;

import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.system.PeriodicSweep;

/**
 * Deletes expired idempotency keys every minute, in bounded batches so that the table
 * stays as small as a day of keys. Expired keys already stop counting when they expire;
 * this only reclaims the space.
 */
@Component
class IdempotencySweeper extends PeriodicSweep {

	static final int BATCH = 10_000;

	private final IdempotencyRepository keys;

	private final Clock clock;

	IdempotencySweeper(IdempotencyRepository keys, Clock clock) {
		super(Duration.ofMinutes(1), "delete expired idempotency keys");
		this.keys = keys;
		this.clock = clock;
	}

	@Override
	public Mono<Long> sweep() {
		return this.keys.deleteExpired(this.clock.instant(), BATCH);
	}

}
