package com.healthpartner.api.system;

import java.time.Instant;
import java.util.List;

import io.netty.buffer.Unpooled;
import io.r2dbc.postgresql.codec.PostgresqlObjectId;
import io.r2dbc.postgresql.message.Format;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Times read from PostgreSQL through the service's connections are the instants the
 * database holds, and instants bound as parameters arrive as those times, to the
 * microsecond, on both sides of PostgreSQL's epoch.
 */
class BinaryInstantsTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Test
	void readsEveryTimeAsTheDatabaseHoldsIt() {
		List<String> times = List.of("2026-11-23T09:30:00.123456Z", "2000-01-01T00:00:00Z",
				"1999-12-31T23:59:59.999999Z", "1970-01-01T00:00:00.000001Z", "1900-03-04T05:06:07.5Z",
				"9999-12-31T23:59:59.999Z");
		for (String time : times) {
			this.db.sql("select cast(:time as timestamptz) as t")
				.bind("time", time)
				.map((row) -> row.get("t", Instant.class))
				.one()
				.as(StepVerifier::create)
				.expectNext(Instant.parse(time))
				.verifyComplete();
		}
	}

	@Test
	void readsTheInfinitiesAsTheFarthestInstants() {
		// bound parameters make it the extended protocol, whose results are binary
		this.db.sql("select cast(:a as timestamptz) as a, cast(:b as timestamptz) as b")
			.bind("a", "infinity")
			.bind("b", "-infinity")
			.map((row) -> List.of(row.get("a", Instant.class), row.get("b", Instant.class)))
			.one()
			.as(StepVerifier::create)
			.expectNext(List.of(Instant.MAX, Instant.MIN))
			.verifyComplete();
	}

	@Test
	void sendsEveryInstantAsTheTimeItIs() {
		List<String> times = List.of("2026-11-23T09:30:00.123456Z", "2000-01-01T00:00:00Z",
				"1999-12-31T23:59:59.999999Z", "1970-01-01T00:00:00.000001Z", "1900-03-04T05:06:07.5Z",
				"9999-12-31T23:59:59.999Z");
		for (String time : times) {
			this.db.sql("select cast(:text as timestamptz) = :time as same, :time as back")
				.bind("text", time)
				.bind("time", Instant.parse(time))
				.map((row) -> List.of(row.get("same", Boolean.class), row.get("back", Instant.class)))
				.one()
				.as(StepVerifier::create)
				.expectNext(List.of(true, Instant.parse(time)))
				.verifyComplete();
		}
		this.db.sql("select cast(:time as timestamptz) is null as missing")
			.bindNull("time", Instant.class)
			.map((row) -> row.get("missing", Boolean.class))
			.one()
			.as(StepVerifier::create)
			.expectNext(true)
			.verifyComplete();
	}

	@Test
	void takesOverOnlyBinaryTimestamptzReadAsInstants() {
		BinaryInstants.InstantCodec codec = new BinaryInstants.InstantCodec(null);
		int timestamptz = PostgresqlObjectId.TIMESTAMPTZ.getObjectId();
		assertThat(codec.canDecode(timestamptz, Format.FORMAT_BINARY, Instant.class)).isTrue();
		assertThat(codec.canDecode(timestamptz, Format.FORMAT_TEXT, Instant.class)).isFalse();
		assertThat(codec.canDecode(PostgresqlObjectId.TIMESTAMP.getObjectId(), Format.FORMAT_BINARY, Instant.class))
			.isFalse();
		assertThat(codec.canDecode(timestamptz, Format.FORMAT_BINARY, String.class)).isFalse();
		assertThat(codec.decode(Unpooled.buffer().writeLong(-1), timestamptz, Format.FORMAT_BINARY, Instant.class))
			.isEqualTo(Instant.parse("1999-12-31T23:59:59.999999Z"));
	}

}
