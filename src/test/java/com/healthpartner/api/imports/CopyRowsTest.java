package com.healthpartner.api.imports;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An NDJSON body as COPY rows, a row per chunk of lines, whatever the buffers it arrives
 * in: numbered lines, blank ones left out but counted, escapes, a last line without its
 * end, the byte limit; and the rows read back as the numbered lines.
 */
class CopyRowsTest {

	private static final UUID ID = UUID.fromString("00000000-0000-0000-0000-00000000000a");

	private static final String BODY = "{\"a\": \"x\\\\y\"}\r\n\n   \r\n{\"b\":\t1}\n\u0000{}\n{\"c\": 3}";

	/** Chunks of two lines that hold something: lines 1 to 4, then 5 and 6. */
	private static final String ROWS = ID + "\t1\t{\"a\": \"x\\\\\\\\y\"}\\r\\n\\n\\n{\"b\":\\t1}\n" + ID
			+ "\t5\t\uFFFD{}\\n{\"c\": 3}\n";

	@Test
	void theSameRowsWhateverTheChunks() {
		SplittableRandom random = new SplittableRandom(3);
		byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
		for (int round = 0; round < 200; round++) {
			CopyRows rows = new CopyRows(ID, 1 << 20, 2, 1 << 20);
			StringBuilder out = new StringBuilder();
			int at = 0;
			while (at < body.length) {
				int size = Math.min(body.length - at, 1 + random.nextInt(6));
				out.append(text(rows.rows(chunk(body, at, size), UnpooledByteBufAllocator.DEFAULT)));
				at += size;
			}
			out.append(text(rows.end(UnpooledByteBufAllocator.DEFAULT)));
			assertThat(out).hasToString(ROWS);
			assertThat(rows.stored()).isEqualTo(4);
			assertThat(rows.bytes()).isEqualTo(body.length);
			assertThat(rows.chunkStarts()).as("chunks of two stored lines").containsExactly(1, 5);
		}
	}

	@Test
	void aChunkEndsAtTheLineThatReachesItsBytes() {
		CopyRows rows = new CopyRows(ID, 1 << 20, 1000, 1);
		byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
		text(rows.rows(chunk(body, 0, body.length), UnpooledByteBufAllocator.DEFAULT));
		text(rows.end(UnpooledByteBufAllocator.DEFAULT));
		assertThat(rows.chunkStarts()).containsExactly(1, 4, 5, 6);
	}

	@Test
	void blankLinesThatWouldTakeAChunkOverItsBytesEndIt() {
		CopyRows rows = new CopyRows(ID, 1 << 20, 1000, 20);
		byte[] body = ("{\"a\":1}\n" + "\n".repeat(20) + "{\"b\":2}\n").getBytes(StandardCharsets.UTF_8);
		String out = text(rows.rows(chunk(body, 0, body.length), UnpooledByteBufAllocator.DEFAULT))
				+ text(rows.end(UnpooledByteBufAllocator.DEFAULT));
		assertThat(out).isEqualTo(ID + "\t1\t{\"a\":1}\n" + ID + "\t22\t{\"b\":2}\n");
		assertThat(rows.chunkStarts()).containsExactly(1, 22);
	}

	@Test
	void theRowsReadBackAsTheNumberedLines() {
		CopyRows rows = new CopyRows(ID, 1 << 20, 2, 1 << 20);
		byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
		String out = text(rows.rows(chunk(body, 0, body.length), UnpooledByteBufAllocator.DEFAULT))
				+ text(rows.end(UnpooledByteBufAllocator.DEFAULT));
		List<ImportRepository.Line> lines = new ArrayList<>();
		for (String row : out.split("\n")) {
			String[] columns = row.split("\t");
			lines.addAll(ImportRepository.split(Long.parseLong(columns[1]), unescape(columns[2])));
		}
		assertThat(lines).containsExactly(new ImportRepository.Line(1, "{\"a\": \"x\\\\y\"}\r"),
				new ImportRepository.Line(4, "{\"b\":\t1}"), new ImportRepository.Line(5, "\uFFFD{}"),
				new ImportRepository.Line(6, "{\"c\": 3}"));
	}

	/** A column of COPY's text format as PostgreSQL reads it. */
	private static String unescape(String column) {
		StringBuilder out = new StringBuilder();
		for (int i = 0; i < column.length(); i++) {
			char c = column.charAt(i);
			if (c != '\\') {
				out.append(c);
				continue;
			}
			char next = column.charAt(++i);
			out.append(switch (next) {
				case 'n' -> '\n';
				case 'r' -> '\r';
				case 't' -> '\t';
				default -> next;
			});
		}
		return out.toString();
	}

	@Test
	void aBodyOverTheLimitGivesNoRows() {
		CopyRows rows = new CopyRows(ID, 10, 1000, 1 << 20);
		byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
		assertThat(rows.rows(chunk(body, 0, 8), UnpooledByteBufAllocator.DEFAULT)).isNotNull();
		assertThat(rows.rows(chunk(body, 8, 8), UnpooledByteBufAllocator.DEFAULT)).isNull();
	}

	private static DataBuffer chunk(byte[] body, int from, int size) {
		byte[] part = new byte[size];
		System.arraycopy(body, from, part, 0, size);
		return DefaultDataBufferFactory.sharedInstance.wrap(part);
	}

	private static String text(ByteBuf buffer) {
		try {
			return buffer.toString(StandardCharsets.UTF_8);
		}
		finally {
			buffer.release();
		}
	}

}
