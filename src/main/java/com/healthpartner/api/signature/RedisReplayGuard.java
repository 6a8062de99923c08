package com.healthpartner.api.signature;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

import io.lettuce.core.SetArgs;
import reactor.core.publisher.Mono;

import com.healthpartner.api.redis.RedisStore;

/**
 * Seen signatures in Redis ({@code SET NX PX}), so that a signed write replayed against
 * another instance is refused as well. If Redis cannot be used, this instance's memory
 * decides.
 */
final class RedisReplayGuard implements ReplayGuard {

	private final RedisStore redis;

	private final ReplayGuard local;

	private final Clock clock;

	RedisReplayGuard(RedisStore redis, ReplayGuard local, Clock clock) {
		this.redis = redis;
		this.local = local;
		this.clock = clock;
	}

	@Override
	public Mono<Boolean> firstUse(byte[] signature, Instant validUntil) {
		long ttl = Math.max(1, Duration.between(this.clock.instant(), validUntil).toMillis());
		String key = "hp:sig:" + HexFormat.of().formatHex(signature);
		return this.redis.call((commands) -> commands.set(key, "1", SetArgs.Builder.nx().px(ttl))
			.map("OK"::equals)
			.defaultIfEmpty(false), () -> this.local.firstUse(signature, validUntil));
	}

}
