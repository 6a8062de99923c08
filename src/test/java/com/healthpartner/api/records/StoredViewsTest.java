package com.healthpartner.api.records;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A list shows each record as stored by the statement that wrote it (its {@code view},
 * V32): byte for byte the body that answered its last write and a GET of it, on a page,
 * across pages and in an NDJSON export, also after an update of the record.
 */
class StoredViewsTest extends IntegrationTest {

	@Test
	void pagesAndExportsShowEachRecordByteForByteAsItsLastWriteAnsweredIt() {
		Credentials partner = this.partners.onboard("loadtest");
		String user = "member-" + UUID.randomUUID();
		HealthApi api = new HealthApi(this.client);
		String first = body(api
			.post(HealthApi.METRICS, partner.apiKey(),
					"{\"user_id\": \"" + user + "\", \"client_record_id\": \"scale:7@home\", "
							+ "\"client_record_version\": 1, \"recorded_at\": \"2026-11-22T09:30:00.25+02:00\", "
							+ "\"metrics\": {\"weight\": 72.50, \"body_fat\": 18}}")
			.expectStatus()
			.isCreated());
		String updated = body(api
			.post(HealthApi.METRICS, partner.apiKey(),
					"{\"user_id\": \"" + user + "\", \"client_record_id\": \"scale:7@home\", "
							+ "\"client_record_version\": 2, \"recorded_at\": \"2026-11-22T09:30:00.25+02:00\", "
							+ "\"metrics\": {\"weight\": 7.25e1}}")
			.expectStatus()
			.isOk());
		String second = body(api
			.post(HealthApi.METRICS, partner.apiKey(),
					"{\"user_id\": \"" + user + "\", \"recorded_at\": \"2026-11-23T00:00:00Z\", "
							+ "\"metrics\": {\"steps\": 12000}}")
			.expectStatus()
			.isCreated());
		String assessment = body(api
			.post(HealthApi.ASSESSMENTS, partner.apiKey(),
					"{\"user_id\": \"" + user
							+ "\", \"responses\": {\"notes\": \"M\\u00fcller \\\"quoted\\\" \\u2713\\n\", "
							+ "\"goals\": [\"sleep\", {\"steps\": 1E4}], \"smoker\": false, \"z\": null}}")
			.expectStatus()
			.isCreated());
		assertThat(first).isNotEqualTo(updated);

		String page = body(
				api.get(partner.apiKey(), HealthApi.METRICS + "?user_id={user}", user).expectStatus().isOk());
		assertThat(page).isEqualTo("{\"data\":[" + updated + "," + second + "],\"next_cursor\":null}");
		String firstPage = body(
				api.get(partner.apiKey(), HealthApi.METRICS + "?user_id={user}&limit=1", user).expectStatus().isOk());
		assertThat(firstPage).startsWith("{\"data\":[" + updated + "],\"next_cursor\":\"");
		assertThat(api.ndjson(partner.apiKey(), HealthApi.METRICS + "?user_id={user}", user)).containsExactly(updated,
				second);
		String id = updated.substring("{\"id\":\"".length(), updated.indexOf('"', "{\"id\":\"".length()));
		assertThat(body(api.get(partner.apiKey(), HealthApi.METRICS + "/{id}", id).expectStatus().isOk()))
			.isEqualTo(updated);

		assertThat(
				body(api.get(partner.apiKey(), HealthApi.ASSESSMENTS + "?user_id={user}", user).expectStatus().isOk()))
			.isEqualTo("{\"data\":[" + assessment + "],\"next_cursor\":null}");
		assertThat(api.ndjson(partner.apiKey(), HealthApi.ASSESSMENTS + "?user_id={user}", user))
			.isEqualTo(List.of(assessment));
	}

	private static String body(WebTestClient.ResponseSpec response) {
		byte[] bytes = response.expectBody().returnResult().getResponseBodyContent();
		assertThat(bytes).isNotNull();
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
