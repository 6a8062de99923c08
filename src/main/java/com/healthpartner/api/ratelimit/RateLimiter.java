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

}
