package com.healthpartner.api.redis;

import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * {@code rateLimitStore} in {@code /actuator/health} and its readiness group (store
 * {@code redis}): {@code UP} while limits are shared through Redis, {@code DEGRADED}
 * (answered with HTTP 200) while this instance falls back to its own memory. Never
 * {@code DOWN}: the instance still serves correctly limited (per instance) requests, so
 * taking it out of the load balancer would only make things worse.
 */
class RedisStoreHealthIndicator implements ReactiveHealthIndicator {

	static final Status DEGRADED = new Status("DEGRADED",
			"Redis cannot be used: limits and replay checks are kept per instance");

	private final RedisStore redis;

	RedisStoreHealthIndicator(RedisStore redis) {
		this.redis = redis;
	}

	@Override
	public Mono<Health> health() {
		return this.redis.ping().map((reachable) -> {
			RedisStore.Failure failure = this.redis.failure();
			if (reachable && failure == null) {
				return Health.up().withDetail("store", "redis").withDetail("shared", true).build();
			}
			Health.Builder health = Health.status(DEGRADED).withDetail("store", "redis").withDetail("shared", false);
			if (failure != null) {
				health.withDetail("since", failure.since().toString()).withDetail("reason", failure.reason());
			}
			return health.build();
		});
	}

}
