package com.healthpartner.api.changes;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.support.Feed;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The record of a {@code created} or {@code updated} change is stored as the API showed
 * it by the statement that wrote it (V31's {@code metric_view}, {@code assessment_view},
 * {@code api_time}): byte for byte the body that answered the write.
 */
class FeedRecordsTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Test
	void eachChangeHoldsTheRecordByteForByteAsItsWriteAnsweredIt() {
		Credentials partner = this.partners.onboard("loadtest");
		String user = "member-" + UUID.randomUUID();
		String created = body(new HealthApi(this.client)
			.post(HealthApi.METRICS, partner.apiKey(),
					"{\"user_id\": \"" + user + "\", \"client_record_id\": \"scale:7@home\", "
							+ "\"client_record_version\": 1, \"recorded_at\": \"2026-11-22T09:30:00.25+02:00\", "
							+ "\"metrics\": {\"weight\": 72.50, \"body_fat\": 18, \"resting_heart_rate\": 61}}")
			.expectStatus()
			.isCreated());
		String updated = body(new HealthApi(this.client)
			.post(HealthApi.METRICS, partner.apiKey(),
					"{\"user_id\": \"" + user + "\", \"client_record_id\": \"scale:7@home\", "
							+ "\"client_record_version\": 2, \"metrics\": {\"weight\": 7.25e1}}")
			.expectStatus()
			.isOk());
		String assessment = body(new HealthApi(this.client)
			.post(HealthApi.ASSESSMENTS, partner.apiKey(),
					"{\"user_id\": \"" + user
							+ "\", \"responses\": {\"notes\": \"M\\u00fcller \\\"quoted\\\" \\u2713\\n\", "
							+ "\"goals\": [\"sleep\", {\"steps\": 1E4}], \"smoker\": false, \"z\": null}}")
			.expectStatus()
			.isCreated());

		// a change is listed once every older transaction has ended (within about a
		// second of its write's answer): the feed is read until the last write is in it
		String feed = eventually(Duration.ofSeconds(5),
				() -> body(this.client.get()
					.uri(Feed.PATH)
					.header("x-api-key", partner.apiKey())
					.exchange()
					.expectStatus()
					.isOk()),
				(page) -> page.contains("\"record\":" + assessment + "}"));

		assertThat(created).isNotEqualTo(updated);
		assertThat(feed).contains("\"kind\":\"created\"", "\"kind\":\"updated\"")
			.contains("\"record\":" + created + "}")
			.contains("\"record\":" + updated + "}")
			.contains("\"record\":" + assessment + "}");
	}

	@Test
	void timesAreStoredAsTheApiWritesThemAcrossTheWholeRangeOfRecordedAt() {
		List<Instant> instants = List.of(Instant.parse("2026-11-22T07:30:00.250Z"),
				Instant.parse("1970-01-01T00:00:00Z"), Instant.parse("1969-12-31T23:59:59.999Z"),
				Instant.parse("0001-01-01T00:00:00Z"), Instant.parse("0000-12-31T23:59:59.999Z"),
				Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("-0001-12-31T14:00:00Z"),
				Instant.parse("9999-12-31T23:59:59.999Z"), Instant.parse("+10000-01-01T13:59:00.500Z"));
		for (Instant instant : instants) {
			// built from whole seconds and milliseconds, both exact, whatever the driver
			// makes of instants before year 1
			this.db.sql("select api_time(to_timestamp(:seconds) + :millis * interval '1 millisecond') as text")
				.bind("seconds", (double) instant.getEpochSecond())
				.bind("millis", instant.getNano() / 1_000_000)
				.map((row) -> row.get("text", String.class))
				.one()
				.as(StepVerifier::create)
				.expectNext(Timestamps.format(instant))
				.verifyComplete();
		}
	}

	private static String body(WebTestClient.ResponseSpec response) {
		byte[] bytes = response.expectBody().returnResult().getResponseBodyContent();
		assertThat(bytes).isNotNull();
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
