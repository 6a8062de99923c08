package com.healthpartner.api.redis;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Where the state shared by several instances lives ({@code APP_RATE_LIMIT_STORE}):
 * {@code local} (this instance's memory; nothing of Redis is created, so no connection is
 * ever attempted) or {@code redis}. The rate limits and the replay guard each choose
 * their own implementation on the same setting; {@code rateLimitStore} in health and
 * readiness shows which store is in use and whether it answers.
 */
@Configuration(proxyBeanMethods = false)
class SharedStoreConfiguration {

	/** The setting both the rate limits and the replay guard follow. */
	static final String STORE = "app.rate-limit-store";

	@Bean
	@ConditionalOnProperty(name = STORE, havingValue = "local", matchIfMissing = true)
	ReactiveHealthIndicator rateLimitStoreHealthIndicator() {
		return () -> Mono.just(Health.up().withDetail("store", "local").withDetail("shared", false).build());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = STORE, havingValue = "redis")
	static class Redis {

		@Bean
		RedisStore redisStore(@Value("${spring.data.redis.url:redis://127.0.0.1:6379}") String url, Clock clock,
				MeterRegistry meters) {
			return new RedisStore(url, clock, meters);
		}

		@Bean
		RedisStoreHealthIndicator rateLimitStoreHealthIndicator(RedisStore redis) {
			return new RedisStoreHealthIndicator(redis);
		}

	}

}
