package com.healthpartner.api.ratelimit;

import java.time.Clock;
import java.util.List;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import reactor.core.publisher.Mono;

import com.healthpartner.api.crypto.Digests;
import com.healthpartner.api.redis.RedisStore;

/**
 * Windows kept in Redis, so that a partner's limit holds across all instances together:
 * one atomic round trip per request (a Lua script, by its SHA-1; sent in full only when
 * Redis does not know it yet). Time comes from the caller's clock, as in the local
 * limiter, so windows behave the same in both. If Redis cannot be used the local limiter
 * decides (fail open, docs/operations.md).
 */
final class RedisRateLimiter implements RateLimiter {

	/**
	 * KEYS[1]: the subject's window; ARGV: limit, window length (ms), now (ms). A new
	 * window starts with the first request after the previous one ended. An instance
	 * whose clock is behind the one that started the window sees "now" before the
	 * window's start: it still counts in that window (were that a new window, every
	 * request of a lagging instance at the start of a window would reset the partner's
	 * count); a clock set back therefore only makes the window longer for that instance,
	 * never more generous. A refused request writes nothing. Returns {allowed (1/0),
	 * remaining, window end (ms)}.
	 */
	static final String SCRIPT = """
			local limit = tonumber(ARGV[1])
			local length = tonumber(ARGV[2])
			local now = tonumber(ARGV[3])
			local window = redis.call('HMGET', KEYS[1], 'end', 'used')
			local ends = tonumber(window[1])
			local used = tonumber(window[2])
			if ends == nil or used == nil or now >= ends then
			  ends = now + length
			  used = 0
			end
			if used >= limit then
			  return {0, 0, ends}
			end
			used = used + 1
			redis.call('HSET', KEYS[1], 'end', ends, 'used', used)
			redis.call('PEXPIRE', KEYS[1], ends - now + 1000)
			return {1, limit - used, ends}
			""";

	private static final String SHA = Digests.sha1Hex(SCRIPT);

	private final RedisStore redis;

	private final RateLimiter local;

	private final Clock clock;

	RedisRateLimiter(RedisStore redis, RateLimiter local, Clock clock) {
		this.redis = redis;
		this.local = local;
		this.clock = clock;
	}

	@Override
	public Mono<Decision> acquire(Policy policy, String subject) {
		return this.redis.call((commands) -> shared(commands, policy, subject),
				() -> this.local.acquire(policy, subject));
	}

	private Mono<Decision> shared(RedisReactiveCommands<String, String> commands, Policy policy, String subject) {
		long now = this.clock.millis();
		String[] keys = { "hp:rl:" + subject };
		String[] args = { String.valueOf(policy.limit()), String.valueOf(policy.window().toMillis()),
				String.valueOf(now) };
		return commands.<Object>evalsha(SHA, ScriptOutputType.MULTI, keys, args)
			.onErrorResume(RedisNoScriptException.class,
					(missing) -> commands.<Object>eval(SCRIPT, ScriptOutputType.MULTI, keys, args))
			.collectList()
			.map((result) -> decision(policy, result, now));
	}

	private static Decision decision(Policy policy, List<Object> result, long now) {
		List<?> values = (result.size() == 1 && result.get(0) instanceof List<?> nested) ? nested : result;
		if (values.size() != 3) {
			throw new IllegalStateException("Unexpected answer of the rate-limit script: " + values);
		}
		return new Decision(policy, number(values.get(0)) == 1, (int) number(values.get(1)), number(values.get(2)),
				now);
	}

	private static long number(Object value) {
		if (value instanceof Number number) {
			return number.longValue();
		}
		throw new IllegalStateException("Unexpected value in the rate-limit script's answer: " + value);
	}

}
