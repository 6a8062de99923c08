package com.healthpartner.api.text;

import java.util.Objects;
import java.util.function.Function;

/**
 * The text of a value, made again only when the value differs from the last one: a
 * partner's requests come in runs (a used-up plan's refusals above all), and making the
 * text of its id on each was seen in the profile of a refusal (docs/performance.md). Own
 * code, not a cache library's: their lookup hashes the key, which is most of what this
 * saves. Safe across threads: a value and its text are published together.
 */
public final class LastText<T> {

	private final Function<T, String> make;

	private volatile Made<T> last;

	public LastText(Function<T, String> make) {
		this.make = make;
	}

	/**
	 * The text of {@code value}, made from it or kept from the last call with an equal
	 * value.
	 */
	public String of(T value) {
		Made<T> last = this.last;
		if (last != null && last.value().equals(value)) {
			return last.text();
		}
		String text = this.make.apply(Objects.requireNonNull(value));
		this.last = new Made<>(value, text);
		return text;
	}

	private record Made<T>(T value, String text) {
	}

}
