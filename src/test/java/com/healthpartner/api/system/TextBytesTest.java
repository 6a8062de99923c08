package com.healthpartner.api.system;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A text read as bytes through the service's connections is its UTF-8, whatever its
 * characters; reading it as a string and sending and reading {@code bytea} stay as they
 * were.
 */
class TextBytesTest extends IntegrationTest {

	private static final List<String> TEXTS = List.of("", "{\"weight\": 72.5}", "naïve café — ✓ 😀 日本",
			"line\nbreak \"quoted\" \\ back");

	@Autowired
	private DatabaseClient db;

	@Test
	void aTextReadAsBytesIsItsUtf8() {
		for (String text : TEXTS) {
			this.db.sql("select cast(:text as text) as t, cast(:text as varchar) as v, cast(:text as text) as s")
				.bind("text", text)
				.map((row) -> List.of(row.get("t", byte[].class), row.get("v", byte[].class),
						row.get("s", String.class)))
				.one()
				.as(StepVerifier::create)
				.assertNext((read) -> {
					assertThat((byte[]) read.get(0)).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
					assertThat((byte[]) read.get(1)).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
					assertThat(read.get(2)).isEqualTo(text);
				})
				.verifyComplete();
		}
		this.db.sql("select cast(null as text) is null as missing, cast(null as text) as t")
			.map((row) -> row.get("t", byte[].class) == null && row.get("missing", Boolean.class))
			.one()
			.as(StepVerifier::create)
			.expectNext(true)
			.verifyComplete();
	}

	@Test
	void bytesStayByteaBothWays() {
		byte[] bytes = { 0, (byte) 0xff, 'a', (byte) 0xc3 };
		this.db.sql("select :bytes as back, pg_typeof(:bytes)::text as type")
			.bind("bytes", bytes)
			.map((row) -> List.of(row.get("back", byte[].class), row.get("type", String.class)))
			.one()
			.as(StepVerifier::create)
			.assertNext((read) -> {
				assertThat((byte[]) read.get(0)).isEqualTo(bytes);
				assertThat(read.get(1)).isEqualTo("bytea");
			})
			.verifyComplete();
	}

}
