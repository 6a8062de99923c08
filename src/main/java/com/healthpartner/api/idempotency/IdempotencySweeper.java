package com.healthpartner.api.idempotency;

import java.time.Clock;
import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Deletes expired idempotency keys every minute, in bounded batches so that the table
 * stays as small as a day of keys. Expired keys already stop counting when they expire;
 * this only reclaims the space.
 */
@Component
class IdempotencySweeper implements SmartLifecycle {

	static final int BATCH = 10_000;

	private static final Duration EVERY = Duration.ofMinutes(1);

	private static final Log log = LogFactory.getLog(IdempotencySweeper.class);

	private final IdempotencyRepository keys;

	private final Clock clock;

	private volatile Disposable sweeping;

	IdempotencySweeper(IdempotencyRepository keys, Clock clock) {
		this.keys = keys;
		this.clock = clock;
	}

	Mono<Long> sweep() {
		return this.keys.deleteExpired(this.clock.instant(), BATCH);
	}

	@Override
	public void start() {
		this.sweeping = Flux.interval(EVERY)
			.onBackpressureDrop()
			.concatMap((tick) -> sweep().onErrorResume((failure) -> {
				log.debug("Could not delete expired idempotency keys yet: " + failure);
				return Mono.empty();
			}))
			.subscribe();
	}

	@Override
	public void stop() {
		Disposable current = this.sweeping;
		if (current != null) {
			current.dispose();
		}
	}

	@Override
	public boolean isRunning() {
		Disposable current = this.sweeping;
		return current != null && !current.isDisposed();
	}

}
