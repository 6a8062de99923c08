package com.healthpartner.api.text;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
	void aStringEscapedIsTheUtf8OfItsEscapesAsJsonTextWritesThem() {
		List<String> values = List.of("", "plain", "/api/v1/health/metrics", "é ü \u2028 😀", "\"starts", "ends\\",
				"mid\u0001dle", "\n\r\t\b\f\u001f\"\\", "a\"b\\c\td", "ascii then é", "del \u007f", "lone \ud83d",
				"x".repeat(300) + "\"" + "ü".repeat(300));
		Utf8Bytes bytes = new Utf8Bytes(1);
		StringBuilder text = new StringBuilder();
		for (String value : values) {
			Utf8Bytes alone = new Utf8Bytes(4).appendEscaped(value);
			byte[] expected = JsonText.escape(new StringBuilder(), value).toString().getBytes(StandardCharsets.UTF_8);
			assertThat(Arrays.copyOf(alone.array(), alone.length())).as(value).isEqualTo(expected);
			bytes.append('[').appendEscaped(value).append(']');
			JsonText.escape(text.append('['), value).append(']');
		}
		assertThat(Arrays.copyOf(bytes.array(), bytes.length()))
			.isEqualTo(text.toString().getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void aNumberIsItsDecimalDigits() {
		long[] values = { 0, 7, 9, 10, 99, 100, 429, 1_000_000_007, -1, -10, -429, Long.MAX_VALUE, Long.MIN_VALUE,
				Long.MIN_VALUE + 1 };
		for (long value : values) {
			Utf8Bytes bytes = new Utf8Bytes(1).append('x').appendDecimal(value).append('y');
			assertThat(new String(bytes.array(), 0, bytes.length(), StandardCharsets.US_ASCII)).as("%d", value)
				.isEqualTo("x" + value + "y");
		}
	}

	@Test
	void bytesAppendedAgainAreACopyOfThoseWrittenBeforeEvenWhenTheTextGrows() {
		Utf8Bytes bytes = new Utf8Bytes(16).append("path=");
		int start = bytes.length();
		bytes.appendEscaped("/api/v1/é\"q\"");
		int end = bytes.length();
		bytes.append(" again=").appendAgain(start, end).append(" empty=").appendAgain(end, end);
		for (int i = 0; i < 6; i++) {
			// doubles the text each time: the copy outgrows the array it reads from
			bytes.appendAgain(0, bytes.length());
		}
		String once = "path=/api/v1/é\\\"q\\\" again=/api/v1/é\\\"q\\\" empty=";
		assertThat(new String(bytes.array(), 0, bytes.length(), StandardCharsets.UTF_8)).isEqualTo(once.repeat(64));
	}

	@Test
	void bytesNotWrittenYetCannotBeAppendedAgain() {
		Utf8Bytes bytes = new Utf8Bytes(64).append("abc");
		assertThatThrownBy(() -> bytes.appendAgain(2, 4)).isInstanceOf(IndexOutOfBoundsException.class);
		assertThatThrownBy(() -> bytes.appendAgain(-1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
		assertThatThrownBy(() -> bytes.appendAgain(2, 1)).isInstanceOf(IndexOutOfBoundsException.class);
		assertThat(bytes.length()).isEqualTo(3);
	}

	@Test
	void clearedTheTextStartsAgainInTheSameArray() {
		Utf8Bytes bytes = new Utf8Bytes(16).append("first line");
		byte[] array = bytes.array();
		bytes.clear();
		bytes.append("two");
		assertThat(bytes.length()).isEqualTo(3);
		assertThat(bytes.array()).isSameAs(array);
		assertThat(new String(bytes.array(), 0, bytes.length(), StandardCharsets.UTF_8)).isEqualTo("two");
	}

	@Test
	void nothingAppendedIsNoBytes() {
		assertThat(new Utf8Bytes(0).length()).isZero();
		assertThat(new Utf8Bytes(64).append(new byte[0]).append("").length()).isZero();
	}

}
