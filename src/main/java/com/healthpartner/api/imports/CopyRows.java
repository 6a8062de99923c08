package com.healthpartner.api.imports;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import org.springframework.core.io.buffer.DataBuffer;

/**
 * An NDJSON body, as it arrives, turned into the rows of {@code import_lines} in
 * PostgreSQL's COPY text format: {@code <import id> TAB <line> TAB <line's text> LF}, the
 * text escaped ({@code \\}, tab and carriage return), a NUL byte (never valid JSON) made
 * U+FFFD so that its line is refused as malformed rather than the whole COPY. A line of
 * nothing but spaces, tabs or a carriage return is blank and not stored; lines are
 * numbered from 1, blank ones counted. It also cuts the stored lines into the chunks the
 * worker will apply, each of at most {@code chunkLines} lines and about
 * {@code chunkBytes} bytes (a chunk ends after the line that reaches either), and keeps
 * each chunk's first line. Written by hand: it touches every byte of up to 1 GiB, chunk
 * by chunk, without holding more than one chunk.
 */
final class CopyRows {

	private static final byte[] REPLACEMENT = { (byte) 0xEF, (byte) 0xBF, (byte) 0xBD };

	private final byte[] prefix;

	private final long maxBytes;

	private long line = 1;

	private boolean started;

	/** Where the last row that {@link #rows} wrote ended in its buffer; -1: none. */
	private int rowsEnd = -1;

	private long stored;

	private long bytes;

	private final int chunkLines;

	private final long chunkBytes;

	/** Lines and bytes of the chunk being filled. */
	private int linesInChunk;

	private long bytesInChunk;

	private long[] chunkStarts = new long[16];

	private int chunks;

	CopyRows(UUID importId, long maxBytes, int chunkLines, long chunkBytes) {
		this.prefix = (importId + "\t").getBytes(StandardCharsets.US_ASCII);
		this.maxBytes = maxBytes;
		this.chunkLines = chunkLines;
		this.chunkBytes = chunkBytes;
	}

	/**
	 * The rows of {@code chunk} (released here); null once the body is over the limit.
	 */
	ByteBuf rows(DataBuffer chunk, ByteBufAllocator allocator) {
		int length = chunk.readableByteCount();
		this.bytes += length;
		if (this.bytes > this.maxBytes) {
			return null;
		}
		ByteBuf out = allocator.buffer(length + length / 8 + 64);
		this.rowsEnd = -1;
		int from = chunk.readPosition();
		for (int i = 0; i < length; i++) {
			byte b = chunk.getByte(from + i);
			if (b == '\n') {
				if (this.started) {
					out.writeByte('\n');
					lineEnded();
					this.rowsEnd = out.writerIndex();
				}
				this.line++;
				continue;
			}
			if (!this.started) {
				if (b == ' ' || b == '\t' || b == '\r') {
					continue;
				}
				out.writeBytes(this.prefix);
				out.writeCharSequence(Long.toString(this.line), StandardCharsets.US_ASCII);
				out.writeByte('\t');
				this.started = true;
				if (this.linesInChunk == 0) {
					chunkStarts(this.line);
				}
			}
			this.bytesInChunk++;
			switch (b) {
				case '\\' -> out.writeByte('\\').writeByte('\\');
				case '\t' -> out.writeByte('\\').writeByte('t');
				case '\r' -> out.writeByte('\\').writeByte('r');
				case 0 -> out.writeBytes(REPLACEMENT);
				default -> out.writeByte(b);
			}
		}
		return out;
	}

	/** What is left at the end of the body: the end of its last line, if it had none. */
	ByteBuf end(ByteBufAllocator allocator) {
		ByteBuf out = allocator.buffer(1);
		if (this.started) {
			out.writeByte('\n');
			lineEnded();
		}
		return out;
	}

	private void lineEnded() {
		this.stored++;
		this.started = false;
		if (++this.linesInChunk >= this.chunkLines || this.bytesInChunk >= this.chunkBytes) {
			this.linesInChunk = 0;
			this.bytesInChunk = 0;
		}
	}

	private void chunkStarts(long line) {
		if (this.chunks == this.chunkStarts.length) {
			this.chunkStarts = java.util.Arrays.copyOf(this.chunkStarts, this.chunks * 2);
		}
		this.chunkStarts[this.chunks++] = line;
	}

	/** The first line of each chunk, in order. */
	long[] chunkStarts() {
		return java.util.Arrays.copyOf(this.chunkStarts, this.chunks);
	}

	/**
	 * Where the last complete row of the buffer {@link #rows} returned last ends (what
	 * follows is the start of a row); -1 if it completed none.
	 */
	int rowsEnd() {
		return this.rowsEnd;
	}

	/** The lines stored so far (not blank). */
	long stored() {
		return this.stored;
	}

	/** The body's bytes so far. */
	long bytes() {
		return this.bytes;
	}

}
