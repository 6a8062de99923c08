package com.healthpartner.api.ratelimit;

import java.time.Clock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.healthpartner.api.redis.RedisStore;

/**
 * Where windows are counted ({@code APP_RATE_LIMIT_STORE}): in this instance's memory, or
 * in Redis shared by all instances with this instance's memory as the fallback.
 */
@Configuration(proxyBeanMethods = false)
class RateLimiterConfiguration {

	@Bean
	@ConditionalOnProperty(name = "app.rate-limit-store", havingValue = "local", matchIfMissing = true)
	RateLimiter localRateLimiter(Clock clock) {
		return new LocalRateLimiter(clock);
	}

	@Bean
	@ConditionalOnProperty(name = "app.rate-limit-store", havingValue = "redis")
	RateLimiter redisRateLimiter(RedisStore redis, Clock clock) {
		return new RedisRateLimiter(redis, new LocalRateLimiter(clock), clock);
	}

}
