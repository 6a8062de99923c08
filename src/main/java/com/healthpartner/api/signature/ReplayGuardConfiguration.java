package com.healthpartner.api.signature;

import java.time.Clock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.healthpartner.api.redis.RedisStore;

/**
 * Where seen signatures are kept ({@code APP_RATE_LIMIT_STORE}, the store of the rate
 * limits): in this instance's memory, or in Redis so that a write replayed against
 * another instance is refused too, with this instance's memory as the fallback.
 */
@Configuration(proxyBeanMethods = false)
class ReplayGuardConfiguration {

	@Bean
	@ConditionalOnProperty(name = "app.rate-limit-store", havingValue = "local", matchIfMissing = true)
	ReplayGuard localReplayGuard(Clock clock) {
		return new LocalReplayGuard(clock);
	}

	@Bean
	@ConditionalOnProperty(name = "app.rate-limit-store", havingValue = "redis")
	ReplayGuard redisReplayGuard(RedisStore redis, Clock clock) {
		return new RedisReplayGuard(redis, new LocalReplayGuard(clock), clock);
	}

}
