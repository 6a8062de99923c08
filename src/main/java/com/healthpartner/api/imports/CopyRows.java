package com.healthpartner.api.imports;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import org.springframework.core.io.buffer.DataBuffer;

/**
 * An NDJSON body, as it arrives, turned into the rows of {@code import_lines} in
 * PostgreSQL's COPY text format, a row per chunk of lines that the worker will apply
 * together: {@code <import id> TAB <chunk's first line> TAB <its lines> LF}, the lines
 * joined by an escaped line feed ({@code \\n}), their text escaped ({@code \\}, tab and
 * carriage return), a NUL byte (never valid JSON) made U+FFFD so that its line is refused
 * as malformed rather than the whole COPY. Lines are numbered from 1, blank ones counted:
 * a chunk starts at a line that holds something, and each later line of it, blank or not,
 * is the next number, so a blank line inside a chunk is an empty one (what a line starts
 * with before its first other byte, spaces, tabs and carriage returns, is left out). A
 * chunk ends after the line that makes it {@code chunkLines} lines or about
 * {@code chunkBytes} bytes, or at a blank line that would take it over the bytes. A row
 * per chunk rather than per line: the upload's COPY writes a few large values
 * (compressed, V38) instead of a tuple, an index entry and their WAL per line, which were
 * most of what an upload cost the requests served beside it (docs/performance.md, Bulk
 * writes). Written by hand: it touches every byte of up to 1 GiB, buffer by buffer,
 * without holding more than one.
 */
final class CopyRows {

	private static final byte[] REPLACEMENT = { (byte) 0xEF, (byte) 0xBF, (byte) 0xBD };

	private final byte[] prefix;

	private final long maxBytes;

	/** The number of the line being read. */
	private long line = 1;

	/** Whether the line being read holds something (its first other byte was seen). */
	private boolean started;

	/** Whether a chunk's row is open. */
	private boolean inChunk;

	/** Lines of the open chunk that ended since its last line that held something. */
	private long endedLines;

	/** Where the last row that {@link #rows} wrote ended in its buffer; -1: none. */
	private int rowsEnd = -1;

	private long stored;

	private long bytes;

	private final int chunkLines;

	private final long chunkBytes;

	/** Lines that hold something, and bytes, of the open chunk. */
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
	 * The rows of {@code buffer} (released by the caller); null once the body is over the
	 * limit.
	 */
	ByteBuf rows(DataBuffer buffer, ByteBufAllocator allocator) {
		int length = buffer.readableByteCount();
		this.bytes += length;
		if (this.bytes > this.maxBytes) {
			return null;
		}
		ByteBuf out = allocator.buffer(length + length / 8 + 64);
		this.rowsEnd = -1;
		int from = buffer.readPosition();
		for (int i = 0; i < length; i++) {
			byte b = buffer.getByte(from + i);
			if (b == '\n') {
				lineEnded(out);
				continue;
			}
			if (!this.started) {
				if (b == ' ' || b == '\t' || b == '\r') {
					continue;
				}
				lineStarted(out);
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

	/**
	 * A line holds something: it opens a chunk, or follows the chunk's earlier lines (and
	 * the blank ones since).
	 */
	private void lineStarted(ByteBuf out) {
		this.started = true;
		if (!this.inChunk) {
			this.inChunk = true;
			out.writeBytes(this.prefix);
			out.writeCharSequence(Long.toString(this.line), StandardCharsets.US_ASCII);
			out.writeByte('\t');
			chunkStarts(this.line);
			return;
		}
		for (long i = 0; i < this.endedLines; i++) {
			out.writeByte('\\').writeByte('n');
		}
		this.endedLines = 0;
	}

	private void lineEnded(ByteBuf out) {
		this.line++;
		if (this.started) {
			this.started = false;
			this.stored++;
			this.linesInChunk++;
		}
		else if (!this.inChunk) {
			return;
		}
		this.endedLines++;
		this.bytesInChunk += 2;
		if (this.linesInChunk >= this.chunkLines || this.bytesInChunk >= this.chunkBytes) {
			endChunk(out);
		}
	}

	/** Ends the open chunk's row (its blank lines at the end are left out). */
	private void endChunk(ByteBuf out) {
		out.writeByte('\n');
		this.rowsEnd = out.writerIndex();
		this.inChunk = false;
		this.endedLines = 0;
		this.linesInChunk = 0;
		this.bytesInChunk = 0;
	}

	/**
	 * What is left at the end of the body: the end of its last line and chunk, if open.
	 */
	ByteBuf end(ByteBufAllocator allocator) {
		ByteBuf out = allocator.buffer(1);
		if (this.started) {
			this.started = false;
			this.stored++;
		}
		if (this.inChunk) {
			endChunk(out);
		}
		return out;
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
