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
