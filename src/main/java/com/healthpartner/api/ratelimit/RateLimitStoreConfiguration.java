package com.healthpartner.api.ratelimit;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.healthpartner.api.access.LocalReplayGuard;
import com.healthpartner.api.access.ReplayGuard;

/**
 * Where windows and seen signatures live ({@code APP_RATE_LIMIT_STORE}): {@code local}
 * (this instance's memory; nothing of Redis is created, so no connection is ever
 * attempted) or {@code redis} (shared by all instances, with the local store as
 * fallback).
 */
@Configuration(proxyBeanMethods = false)
class RateLimitStoreConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "app.rate-limit-store", havingValue = "local", matchIfMissing = true)
	static class Local {

		@Bean
		RateLimiter localRateLimiter(Clock clock) {
			return new LocalRateLimiter(clock);
		}

		@Bean
		ReplayGuard localReplayGuard(Clock clock) {
			return new LocalReplayGuard(clock);
		}

		/**
		 * {@code rateLimitStore} is part of readiness whatever the store; the local one
		 * is always there.
		 */
		@Bean
		ReactiveHealthIndicator rateLimitStoreHealthIndicator() {
			return () -> Mono.just(Health.up().withDetail("store", "local").withDetail("shared", false).build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "app.rate-limit-store", havingValue = "redis")
	static class Redis {

		@Bean
		RedisStore redisStore(@Value("${spring.data.redis.url:redis://127.0.0.1:6379}") String url, Clock clock,
				MeterRegistry meters) {
			return new RedisStore(url, clock, meters);
		}

		@Bean
		RateLimiter redisRateLimiter(RedisStore redis, Clock clock) {
			return new RedisRateLimiter(redis, new LocalRateLimiter(clock), clock);
		}

		@Bean
		ReplayGuard redisReplayGuard(RedisStore redis, Clock clock) {
			return new RedisReplayGuard(redis, new LocalReplayGuard(clock), clock);
		}

		@Bean
		RedisStoreHealthIndicator rateLimitStoreHealthIndicator(RedisStore redis) {
			return new RedisStoreHealthIndicator(redis);
		}

	}

}
