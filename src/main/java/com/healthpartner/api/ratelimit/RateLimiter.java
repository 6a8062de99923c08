package com.healthpartner.api.ratelimit;

import reactor.core.publisher.Mono;

/**
 * The port of the limiter: takes one request of {@code subject} (a partner, or a client
 * address under a per-IP policy) under {@code policy} and says whether it is allowed. A
 * refused request is not counted. Implementations: Resilience4j in memory, or Redis
 * shared by all instances.
 */
interface RateLimiter {

	Mono<Decision> acquire(Policy policy, String subject);

	/**
	 * The decision at once, when the windows are in this instance's memory; null when it
	 * takes a round trip ({@link #acquire} then).
	 */
	default Decision acquireNow(Policy policy, String subject) {
		return null;
	}

	/**
	 * The refusal of a request of {@code subject} when its window, in this instance's
	 * memory, is used up under {@code policy}; otherwise null, and nothing is taken (the
	 * request then goes through {@link #acquire}).
	 */
	default Decision refusedNow(Policy policy, String subject) {
		return null;
	}

}
