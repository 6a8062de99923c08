package com.healthpartner.api.text;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * The text of a value is always the value's own text, made once for a run of equal
 * values.
 */
class LastTextTest {

	private final AtomicInteger made = new AtomicInteger();

	private final LastText<UUID> texts = new LastText<>((id) -> {
		this.made.incrementAndGet();
		return "partner:" + id;
	});

	@Test
	void aRunOfEqualValuesHasItsTextMadeOnce() {
		UUID id = UUID.fromString("e7d13468-4d28-4b19-ae38-9440eb90d6b0");
		String first = this.texts.of(id);
		assertThat(first).isEqualTo("partner:e7d13468-4d28-4b19-ae38-9440eb90d6b0");
		// an equal value, not the same instance
		assertThat(this.texts.of(UUID.fromString(id.toString()))).isSameAs(first);
		assertThat(this.made).hasValue(1);
	}

	@Test
	void valuesThatTakeTurnsEachGetTheirOwnText() {
		UUID one = UUID.randomUUID();
		UUID two = UUID.randomUUID();
		for (int i = 0; i < 10; i++) {
			assertThat(this.texts.of(one)).isEqualTo("partner:" + one);
			assertThat(this.texts.of(two)).isEqualTo("partner:" + two);
		}
		assertThat(this.made).hasValue(20);
	}

	@Test
	void threadsAskingForDifferentValuesAtOnceEachGetTheirValuesText() {
		UUID[] ids = { UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID() };
		CompletableFuture<?>[] threads = new CompletableFuture<?>[ids.length];
		for (int t = 0; t < ids.length; t++) {
			UUID id = ids[t];
			threads[t] = CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 100_000; i++) {
					assertThat(this.texts.of(id)).isEqualTo("partner:" + id);
				}
			});
		}
		CompletableFuture.allOf(threads).join();
	}

	@Test
	void thereIsNoTextOfNothing() {
		assertThatNullPointerException().isThrownBy(() -> this.texts.of(null));
	}

}
