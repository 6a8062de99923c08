package com.healthpartner.api.json;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TimestampsTest {

	private static final DateTimeFormatter REFERENCE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	@Test
	void writesWhatTheJavaTimeFormatterWritesForAnyInstant() {
		SplittableRandom random = new SplittableRandom(42);
		for (int i = 0; i < 200_000; i++) {
			Instant instant = Instant.ofEpochMilli(random.nextLong(-62_167_219_200_000L, 253_402_300_800_000L));
			assertThat(Timestamps.format(instant)).isEqualTo(REFERENCE.format(instant));
		}
		for (String edge : new String[] { "0000-01-01T00:00:00Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00Z",
				"2000-02-29T12:00:00.001Z", "2100-03-01T00:00:00Z", "9999-12-31T23:59:59.999Z" }) {
			Instant instant = Instant.parse(edge);
			assertThat(Timestamps.format(instant)).isEqualTo(REFERENCE.format(instant));
		}
	}

	@Test
	void yearsBeyondFourDigitsAreStillWritten() {
		Instant far = Instant.parse("+12026-01-01T00:00:00Z");
		assertThat(Timestamps.format(far)).isEqualTo(REFERENCE.format(far));
		assertThat(new StringBuilder().append('[').append(Timestamps.format(far)).append(']').toString())
			.isEqualTo("[" + REFERENCE.format(far) + "]");
	}

}
