package com.healthpartner.api.signature;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import reactor.core.publisher.Mono;

/**
 * Signatures of signed writes seen by this instance, each kept until its timestamp leaves
 * the 300 s window (time from the injected clock). Kept as 128 bits of the HMAC; the
 * number of entries is bounded so that a flood of signed writes cannot exhaust memory.
 */
final class LocalReplayGuard implements ReplayGuard {

	static final long MAXIMUM_SIGNATURES = 500_000;

	private final Clock clock;

	private final Cache<Seen, Long> seen;

	LocalReplayGuard(Clock clock) {
		this.clock = clock;
		this.seen = Caffeine.newBuilder()
			.ticker(this::nanos)
			.expireAfter(new UntilInvalid())
			.maximumSize(MAXIMUM_SIGNATURES)
			.executor(Runnable::run)
			.build();
	}

	@Override
	public Mono<Boolean> firstUse(byte[] signature, Instant validUntil) {
		return Mono.fromSupplier(() -> {
			ByteBuffer bits = ByteBuffer.wrap(signature);
			Seen key = new Seen(bits.getLong(), bits.getLong());
			long until = validUntil.getEpochSecond() * 1_000_000_000L + validUntil.getNano();
			return this.seen.asMap().putIfAbsent(key, until) == null;
		});
	}

	private long nanos() {
		Instant now = this.clock.instant();
		return now.getEpochSecond() * 1_000_000_000L + now.getNano();
	}

	private record Seen(long high, long low) {
	}

	private static final class UntilInvalid implements Expiry<Seen, Long> {

		@Override
		public long expireAfterCreate(Seen key, Long until, long currentTime) {
			return Math.max(0, until - currentTime);
		}

		@Override
		public long expireAfterUpdate(Seen key, Long until, long currentTime, long currentDuration) {
			return Math.max(0, until - currentTime);
		}

		@Override
		public long expireAfterRead(Seen key, Long until, long currentTime, long currentDuration) {
			return currentDuration;
		}

	}

}
