package com.healthpartner.api.text;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Text built as UTF-8 bytes is the UTF-8 of the same text built as a string, however much
 * it grows past its first capacity.
 */
class Utf8BytesTest {

	@Test
	void theBytesAreTheUtf8OfTheTextAppendedInOrder() {
		Utf8Bytes bytes = new Utf8Bytes(1);
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < 500; i++) {
			String part = "{\"n\":" + i + ",\"note\":\"Müller ✓ 🏋️ " + "x".repeat(i % 7) + "\"}";
			bytes.append(part.getBytes(StandardCharsets.UTF_8)).append(',').append("Ça " + i);
			text.append(part).append(',').append("Ça ").append(i);
		}
		byte[] expected = text.toString().getBytes(StandardCharsets.UTF_8);
		assertThat(bytes.length()).isEqualTo(expected.length);
		assertThat(Arrays.copyOf(bytes.array(), bytes.length())).isEqualTo(expected);
	}

	@Test
	void nothingAppendedIsNoBytes() {
		assertThat(new Utf8Bytes(0).length()).isZero();
		assertThat(new Utf8Bytes(64).append(new byte[0]).append("").length()).isZero();
	}

}
