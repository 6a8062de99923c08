package com.healthpartner.api.text;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Text built as UTF-8 bytes, for an answer that copies stored JSON (UTF-8 already, as
 * read by {@code TextBytes}) between parts of its own, so that the stored JSON is never
 * decoded and encoded again. A plain growable array:
 * {@code java.io.ByteArrayOutputStream} locks on every write and copies its array once
 * more to hand it over.
 */
public final class Utf8Bytes {

	private byte[] bytes;

	private int length;

	/** Empty, with room for {@code capacity} bytes to begin with. */
	public Utf8Bytes(int capacity) {
		this.bytes = new byte[Math.max(16, capacity)];
	}

	/** Appends {@code utf8}, text in UTF-8 already. */
	public Utf8Bytes append(byte[] utf8) {
		int end = room(utf8.length);
		System.arraycopy(utf8, 0, this.bytes, this.length, utf8.length);
		this.length = end;
		return this;
	}

	/** Appends {@code text} in UTF-8. */
	public Utf8Bytes append(String text) {
		return append(text.getBytes(StandardCharsets.UTF_8));
	}

	/** Appends an ASCII character. */
	public Utf8Bytes append(char ascii) {
		int end = room(1);
		this.bytes[this.length] = (byte) ascii;
		this.length = end;
		return this;
	}

	/**
	 * Appends {@code value} as the inside of a JSON string, the same bytes as
	 * {@link JsonText#escape} and then UTF-8 give, in one pass where it is printable
	 * ASCII with nothing to escape (an access log line's fields), without the copies of a
	 * {@code StringBuilder}, its {@code String} and its encoding.
	 */
	public Utf8Bytes appendEscaped(String value) {
		int size = value.length();
		int at = this.length;
		room(size);
		byte[] bytes = this.bytes;
		for (int i = 0; i < size; i++) {
			char c = value.charAt(i);
			if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
				// the rest as before: rare (an escape, a character beyond ASCII)
				this.length = at;
				return append(JsonText.escape(new StringBuilder(size - i + 16), value.substring(i)).toString());
			}
			bytes[at++] = (byte) c;
		}
		this.length = at;
		return this;
	}

	/**
	 * Appends again the bytes from {@code start} to {@code end} of this text, as written
	 * before: a field the text holds already is copied, not written a second time.
	 */
	public Utf8Bytes appendAgain(int start, int end) {
		if (start < 0 || start > end || end > this.length) {
			throw new IndexOutOfBoundsException("bytes " + start + " to " + end + " of " + this.length);
		}
		int at = this.length;
		this.length = room(end - start);
		System.arraycopy(this.bytes, start, this.bytes, at, end - start);
		return this;
	}

	/** Appends {@code value} in decimal digits, as {@code Long.toString} writes it. */
	public Utf8Bytes appendDecimal(long value) {
		if (value < 0) {
			if (value == Long.MIN_VALUE) {
				return append(Long.toString(value));
			}
			append('-');
			value = -value;
		}
		int digits = 1;
		for (long rest = value / 10; rest != 0; rest /= 10) {
			digits++;
		}
		int end = room(digits);
		for (int i = end - 1; i >= this.length; i--) {
			this.bytes[i] = (byte) ('0' + (value % 10));
			value /= 10;
		}
		this.length = end;
		return this;
	}

	/** Empties the text, keeping its array for what comes next. */
	public void clear() {
		this.length = 0;
	}

	/** How many bytes the text has. */
	public int length() {
		return this.length;
	}

	/** The array the text is in: its first {@link #length()} bytes; no copy. */
	public byte[] array() {
		return this.bytes;
	}

	private int room(int more) {
		int end = this.length + more;
		if (end > this.bytes.length) {
			this.bytes = Arrays.copyOf(this.bytes, Math.max(end, this.bytes.length * 2));
		}
		return end;
	}

}
