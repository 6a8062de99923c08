package com.healthpartner.api.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Key-use times are written with a deadline: when the database stops answering, the write
 * is given up on, so the next ones are not held up, and the times are kept for the next
 * write.
 */
class KeyUsageDeadlineTest {

	@Test
	void aWriteThatGetsNoAnswerEndsAtItsDeadlineAndItsTimesAreWrittenNextTime() {
		FrozenThenAnswering lookup = new FrozenThenAnswering();
		Instant usedAt = Instant.parse("2026-11-23T09:30:00.123Z");
		KeyUsage usage = new KeyUsage(lookup, Clock.fixed(usedAt, ZoneOffset.UTC), Duration.ofMillis(300));
		UUID key = UUID.randomUUID();
		usage.used(key);

		usage.flush().as(StepVerifier::create).expectComplete().verify(Duration.ofSeconds(5));
		usage.flush().as(StepVerifier::create).expectComplete().verify(Duration.ofSeconds(5));

		assertThat(lookup.written).containsExactly(Map.of(key, usedAt));
	}

	/**
	 * The key store as the writer sees a database that stops answering and comes back:
	 * the first write never gets an answer, later ones are stored.
	 */
	private static final class FrozenThenAnswering implements KeyLookup {

		private final List<Map<UUID, Instant>> written = new ArrayList<>();

		private int writes;

		@Override
		public Mono<ApiPrincipal> findByHash(byte[] keyHash) {
			return Mono.empty();
		}

		@Override
		public Mono<Void> recordUse(Map<UUID, Instant> lastUsed) {
			if (this.writes++ == 0) {
				return Mono.never();
			}
			return Mono.fromRunnable(() -> this.written.add(Map.copyOf(lastUsed)));
		}

		@Override
		public String decryptSecret(byte[] secretCiphertext) {
			throw new UnsupportedOperationException("no signed requests here");
		}

	}

}
