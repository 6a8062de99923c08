package com.healthpartner.api.system;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.r2dbc.postgresql.codec.PostgresqlObjectId;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Arrays bound by the service reach PostgreSQL as the values they hold, nulls, quotes,
 * non-ASCII text and times to the microsecond included, in PostgreSQL's binary format.
 */
class BinaryArraysTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Test
	void idsArriveAsTheyAre() {
		UUID first = UUID.fromString("0190f3a2-7c4e-7a1b-8c2d-3e4f5a6b7c8d");
		UUID last = UUID.fromString("ffffffff-0000-4000-8000-000000000001");
		this.db.sql("select cast(:ids as uuid[])::text as ids, pg_typeof(:ids)::text as type")
			.bind("ids", new UUID[] { first, null, last })
			.map((row) -> row.get("ids", String.class) + " " + row.get("type", String.class))
			.one()
			.as(StepVerifier::create)
			.expectNext("{" + first + ",NULL," + last + "} uuid[]")
			.verifyComplete();
	}

	@Test
	void textsArriveUnquotedAndWhole() {
		String[] texts = { "plain", "", "NULL", "quote \" backslash \\ comma , braces {}", "Zoë 🏃 über", null };
		this.db.sql("select t, n from unnest(cast(:texts as text[])) with ordinality as u(t, n) order by n")
			.bind("texts", texts)
			.map((row) -> (row.get("t", String.class) == null) ? "<null>" : row.get("t", String.class))
			.all()
			.collectList()
			.as(StepVerifier::create)
			.expectNext(
					List.of("plain", "", "NULL", "quote \" backslash \\ comma , braces {}", "Zoë 🏃 über", "<null>"))
			.verifyComplete();
	}

	@Test
	void timesArriveToTheNearestMicrosecond() {
		Instant[] times = { Instant.parse("2026-11-23T09:30:00.123456Z"), Instant.parse("1999-12-31T23:59:59.999999Z"),
				Instant.parse("1900-03-04T05:06:07.5Z"), Instant.parse("2026-01-01T00:00:00.000000499Z"),
				Instant.parse("2026-01-01T00:00:00.0000005Z"), Instant.parse("2026-01-01T23:59:59.9999996Z") };
		this.db.sql("select t from unnest(cast(:times as timestamptz[])) with ordinality as u(t, n) order by n")
			.bind("times", times)
			.map((row) -> row.get("t", Instant.class))
			.all()
			.collectList()
			.as(StepVerifier::create)
			.expectNext(
					List.of(Instant.parse("2026-11-23T09:30:00.123456Z"), Instant.parse("1999-12-31T23:59:59.999999Z"),
							Instant.parse("1900-03-04T05:06:07.5Z"), Instant.parse("2026-01-01T00:00:00Z"),
							Instant.parse("2026-01-01T00:00:00.000001Z"), Instant.parse("2026-01-02T00:00:00Z")))
			.verifyComplete();
	}

	@Test
	void numbersAndEmptyArraysArriveAsTheyAre() {
		this.db
			.sql("select cast(:counts as bigint[])::text as counts, cardinality(cast(:none as uuid[])) as none,"
					+ " cast(:noTexts as text[]) = '{}' as empty")
			.bind("counts", new Long[] { 0L, null, Long.MAX_VALUE, Long.MIN_VALUE })
			.bind("none", new UUID[0])
			.bind("noTexts", new String[0])
			.map((row) -> row.get("counts", String.class) + " " + row.get("none", Integer.class) + " "
					+ row.get("empty", Boolean.class))
			.one()
			.as(StepVerifier::create)
			.expectNext("{0,NULL,9223372036854775807,-9223372036854775808} 0 true")
			.verifyComplete();
	}

	@Test
	void arraysAreStillReadByTheDriver() {
		UUID id = UUID.fromString("0190f3a2-7c4e-7a1b-8c2d-3e4f5a6b7c8d");
		this.db.sql("select cast(:ids as uuid[]) as ids, cast(:texts as varchar[]) as texts")
			.bind("ids", new UUID[] { id })
			.bind("texts", new String[] { "a", "b c" })
			.map((row) -> List.of(List.of(row.get("ids", UUID[].class)), List.of(row.get("texts", String[].class))))
			.one()
			.as(StepVerifier::create)
			.expectNext(List.of(List.of(id), List.of("a", "b c")))
			.verifyComplete();
	}

	@Test
	void writesPostgresqlsBinaryArrayLayout() {
		BinaryArrays.Encoder<Long> encoder = new BinaryArrays.Encoder<>(Long[].class, PostgresqlObjectId.INT8_ARRAY,
				PostgresqlObjectId.INT8, null, (buffer, number) -> buffer.writeInt(8).writeLong(number));
		ByteBuf written = encoder.write(new Long[] { 7L, null });
		try {
			assertThat(ByteBufUtil.hexDump(written)).isEqualTo(
					// dimensions 1, has nulls, int8; 2 elements from 1; 7 (8 bytes); null
					"00000001" + "00000001" + "00000014" + "00000002" + "00000001" + "00000008" + "0000000000000007"
							+ "ffffffff");
		}
		finally {
			written.release();
		}
		assertThat(encoder.canEncode(new Long[0])).isTrue();
		assertThat(encoder.canEncode(new Integer[0])).isFalse();
		assertThat(encoder.canEncode(Arrays.asList(1L))).isFalse();
	}

	@Test
	void infinitiesAreTheFarthestInstants() {
		assertThat(BinaryInstants.micros(Instant.MAX)).isEqualTo(Long.MAX_VALUE);
		assertThat(BinaryInstants.micros(Instant.MIN)).isEqualTo(Long.MIN_VALUE);
		assertThat(BinaryInstants.micros(Instant.parse("2000-01-01T00:00:00Z"))).isZero();
		assertThat(BinaryInstants.micros(Instant.parse("1999-12-31T23:59:59.999999Z"))).isEqualTo(-1);
	}

}
