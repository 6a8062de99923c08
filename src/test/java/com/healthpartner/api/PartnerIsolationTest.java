package com.healthpartner.api;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A partner sees only the records it submitted: the same {@code user_id} at two partners
 * is two people, and neither lists, counts, pages into, exports or fetches the other's
 * records.
 */
class PartnerIsolationTest extends IntegrationTest {

	private HealthApi api;

	private Credentials clinic;

	private Credentials gym;

	private final String sharedUserId = "42-" + UUID.randomUUID();

	@BeforeEach
	void twoPartnersWithTheSameUserId() {
		this.api = new HealthApi(this.client);
		this.clinic = this.partners.onboard();
		this.gym = this.partners.onboard();
	}

	@Test
	void metricsOfOnePartnerAreInvisibleToAnother() {
		String clinicRecord = (String) metrics(this.clinic, 80, "2026-05-01T10:00:00Z").get("id");
		metrics(this.clinic, 81, "2026-05-02T10:00:00Z");
		String gymRecord = (String) metrics(this.gym, 60, "2026-05-01T10:00:00Z").get("id");

		String list = HealthApi.METRICS + "?user_id={u}";
		assertThat(this.api.allPages(this.gym.apiKey(), list, this.sharedUserId)).extracting((r) -> r.get("id"))
			.containsExactly(gymRecord);
		assertThat(this.api.allPages(this.clinic.apiKey(), list, this.sharedUserId)).hasSize(2);
		assertThat(this.api.allPages(this.gym.apiKey(), list + "&start_date=2026-05-01&end_date=2026-05-31",
				this.sharedUserId))
			.hasSize(1);
		assertThat(this.api.ndjson(this.gym.apiKey(), list, this.sharedUserId)).singleElement()
			.satisfies((line) -> assertThat(line).contains(gymRecord).doesNotContain(clinicRecord));

		assertThatFetchingIsNotFoundLikeAMissingId(HealthApi.METRICS, clinicRecord);
		this.api.get(this.clinic.apiKey(), HealthApi.METRICS + "/{id}", clinicRecord).expectStatus().isOk();

		String clinicCursor = (String) this.api.page(this.clinic.apiKey(), list + "&limit=1", this.sharedUserId)
			.get("next_cursor");
		assertThat(clinicCursor).isNotNull();
		for (String uri : List.of(list + "&limit=1&cursor={c}", list + "&cursor={c}")) {
			this.api.get(this.gym.apiKey(), uri, this.sharedUserId, clinicCursor)
				.expectStatus()
				.isBadRequest()
				.expectBody()
				.jsonPath("$.errors[0].field")
				.isEqualTo("cursor");
		}
		this.client.get()
			.uri(list + "&cursor={c}", this.sharedUserId, clinicCursor)
			.header("x-api-key", this.gym.apiKey())
			.accept(org.springframework.http.MediaType.APPLICATION_NDJSON)
			.exchange()
			.expectStatus()
			.isBadRequest();
	}

	@Test
	void assessmentsOfOnePartnerAreInvisibleToAnother() {
		String clinicRecord = (String) assessment(this.clinic, "clinic").get("id");
		assessment(this.clinic, "clinic again");
		String gymRecord = (String) assessment(this.gym, "gym").get("id");

		String list = HealthApi.ASSESSMENTS + "?user_id={u}";
		assertThat(this.api.allPages(this.gym.apiKey(), list, this.sharedUserId)).extracting((r) -> r.get("id"))
			.containsExactly(gymRecord);
		assertThat(this.api.ndjson(this.gym.apiKey(), list, this.sharedUserId)).singleElement()
			.satisfies((line) -> assertThat(line).contains("\"gym\""));
		assertThatFetchingIsNotFoundLikeAMissingId(HealthApi.ASSESSMENTS, clinicRecord);

		String clinicCursor = (String) this.api.page(this.clinic.apiKey(), list + "&limit=1", this.sharedUserId)
			.get("next_cursor");
		this.api.get(this.gym.apiKey(), list + "&limit=1&cursor={c}", this.sharedUserId, clinicCursor)
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("cursor");
		this.api.page(this.clinic.apiKey(), list + "&limit=1&cursor={c}", this.sharedUserId, clinicCursor);
	}

	private void assertThatFetchingIsNotFoundLikeAMissingId(String path, String othersRecord) {
		Map<String, Object> others = notFound(path, othersRecord);
		String missing = UUID.randomUUID().toString();
		Map<String, Object> absent = notFound(path, missing);
		assertThat(others.keySet()).isEqualTo(absent.keySet());
		for (String field : List.of("type", "title", "status", "code")) {
			assertThat(others.get(field)).isEqualTo(absent.get(field));
		}
		assertThat(others.get("detail")).isEqualTo(((String) absent.get("detail")).replace(missing, othersRecord));
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> notFound(String path, String id) {
		return this.api.get(this.gym.apiKey(), path + "/{id}", id)
			.expectStatus()
			.isNotFound()
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody();
	}

	private Map<String, Object> metrics(Credentials partner, int weight, String recordedAt) {
		return this.api.create(HealthApi.METRICS, partner.apiKey(), "{\"user_id\": \"" + this.sharedUserId
				+ "\", \"metrics\": {\"weight\": " + weight + "}, \"recorded_at\": \"" + recordedAt + "\"}");
	}

	private Map<String, Object> assessment(Credentials partner, String who) {
		return this.api.create(HealthApi.ASSESSMENTS, partner.apiKey(),
				"{\"user_id\": \"" + this.sharedUserId + "\", \"responses\": {\"who\": \"" + who + "\"}}");
	}

}
