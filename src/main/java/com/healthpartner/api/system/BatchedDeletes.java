package com.healthpartner.api.system;

import java.time.Duration;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;

/**
 * Deletes in batches, each its own short statement: the retention of changes and of
 * webhook deliveries, the deletions of an erasure.
 */
public final class BatchedDeletes {

	private BatchedDeletes() {
	}

	/**
	 * Runs {@code batch} (a statement deleting at most {@code size} rows, giving how many
	 * it deleted) until one deletes fewer than {@code size}, {@code pause} between two;
	 * the total deleted.
	 */
	public static Mono<Long> untilDone(Supplier<Mono<Long>> batch, int size, Duration pause) {
		Mono<Long> next = pause.isZero() ? Mono.defer(batch) : Mono.defer(batch).delaySubscription(pause);
		return Mono.defer(batch).expand((deleted) -> (deleted < size) ? Mono.empty() : next).reduce(0L, Long::sum);
	}

}
