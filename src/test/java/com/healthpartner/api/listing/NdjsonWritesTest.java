package com.healthpartner.api.listing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

import com.healthpartner.api.system.DatabaseProperties;
import com.healthpartner.api.text.JsonText;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lines of an NDJSON export are gathered into writes of whole lines: the bytes are
 * those of one line a record, in order, whatever the batching; a failure loses the lines
 * not yet written, never a part of one.
 */
class NdjsonWritesTest {

	private final Listings listings = new Listings(
			new ExportSlots(new DatabaseProperties(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(2),
					16384, Duration.ofMinutes(10), Duration.ofSeconds(60), 8, 2), new SimpleMeterRegistry()));

	@Test
	void manyRecordsAreWrittenAsWholeLinesInFewWritesWithTheBytesOfOneLineARecord() {
		List<String> records = IntStream.range(0, 2_000).mapToObj((i) -> line(i, "naïve \"reading\" " + i)).toList();
		String expected = records.stream().map((record) -> record + "\n").collect(Collectors.joining());

		List<String> writes = writes(Flux.fromIterable(records).map(NdjsonWritesTest::utf8));

		assertThat(String.join("", writes)).isEqualTo(expected);
		assertThat(writes).hasSizeBetween(2, utf8(expected).length / Listings.WRITE_BYTES + 1)
			.allSatisfy((write) -> assertThat(write).endsWith("\n"));
		assertThat(writes.subList(0, writes.size() - 1))
			.allSatisfy((write) -> assertThat(utf8(write).length).isGreaterThanOrEqualTo(Listings.WRITE_BYTES));
	}

	@Test
	void viewsOfAnyCharactersAreWrittenAsTheyAre() {
		List<String> views = IntStream.range(0, 3_000)
			.mapToObj((i) -> "{\"n\":" + i + ",\"note\":\"Ça va? 🏋️ ✓ " + "x".repeat(i % 40) + "\"}")
			.toList();
		String expected = views.stream().map((view) -> view + "\n").collect(Collectors.joining());

		List<String> writes = writes(Flux.fromIterable(views).map(NdjsonWritesTest::utf8));

		assertThat(String.join("", writes)).isEqualTo(expected);
		assertThat(writes).hasSizeBetween(2, utf8(expected).length / Listings.WRITE_BYTES + 1)
			.allSatisfy((write) -> assertThat(write).endsWith("\n"));
		assertThat(writes(Flux.just(utf8("{\"a\":1}"), utf8("{}")))).containsExactly("{\"a\":1}\n{}\n");
	}

	@Test
	void aFewRecordsAreOneWriteAndNoRecordsNone() {
		assertThat(writes(Flux.just(utf8(line(1, "a")), utf8(line(2, "b")))))
			.containsExactly("{\"n\":1,\"text\":\"a\"}\n{\"n\":2,\"text\":\"b\"}\n");
		assertThat(writes(Flux.empty())).isEmpty();
	}

	@Test
	void aFailureEndsTheWritesWithTheFullOnesWrittenAndTheRestDropped() {
		int perWrite = Listings.WRITE_BYTES / line(0, "x").length() + 1;
		Flux<byte[]> failing = Flux.range(0, perWrite + 10)
			.map((i) -> utf8(line(i, "x")))
			.concatWith(Flux.error(new IllegalStateException("connection lost")));
		List<String> written = new ArrayList<>();

		this.listings.writes(failing, DefaultDataBufferFactory.sharedInstance)
			.as(StepVerifier::create)
			.consumeNextWith((buffer) -> written.add(text(buffer)))
			.expectErrorMessage("connection lost")
			.verify(Duration.ofSeconds(5));

		assertThat(written).singleElement().satisfies((write) -> {
			assertThat(write).endsWith("\n");
			assertThat(write.split("\n")).hasSizeLessThan(perWrite + 10);
		});
	}

	private List<String> writes(Flux<byte[]> records) {
		return this.listings.writes(records, DefaultDataBufferFactory.sharedInstance)
			.map(NdjsonWritesTest::text)
			.collectList()
			.block(Duration.ofSeconds(5));
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(DataBuffer buffer) {
		return buffer.toString(StandardCharsets.UTF_8);
	}

	/** The JSON of a record as a stored view holds it. */
	private static String line(int n, String text) {
		return JsonText.quote(new StringBuilder("{\"n\":").append(n).append(",\"text\":"), text).append('}').toString();
	}

}
