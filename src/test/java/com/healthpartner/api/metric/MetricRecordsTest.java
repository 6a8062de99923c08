package com.healthpartner.api.metric;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Submitting and reading one metrics record, and the catalog (the routes' scopes, methods
 * and unknown ids: records/RecordKindRoutesTest).
 */
class MetricRecordsTest extends IntegrationTest {

	private static final String TIMESTAMP = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";

	private HealthApi api;

	private Credentials partner;

	@BeforeEach
	void partner() {
		this.api = new HealthApi(this.client);
		this.partner = this.partners.onboard();
	}

	@Test
	void aSubmittedRecordIsCreatedWithLocationAndReadBackTheSame() {
		String user = "member-" + UUID.randomUUID();
		var result = this.api.post(HealthApi.METRICS, this.partner.apiKey(), """
				{"user_id": "%s", "metrics": {"weight": 72.5, "resting_heart_rate": 58, "custom_score": -3.25e2},
				 "recorded_at": "2026-01-10T08:30:00.123456+01:00"}
				""".formatted(user))
			.expectStatus()
			.isCreated()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectHeader()
			.exists("X-Request-Id")
			.expectHeader()
			.valueEquals(HttpHeaders.CACHE_CONTROL, "no-store")
			.expectHeader()
			.doesNotExist("Idempotent-Replayed")
			.expectBody()
			.jsonPath("$.id")
			.value((String value) -> assertThat(value).matches("[0-9a-f-]{36}"))
			.jsonPath("$.user_id")
			.isEqualTo(user)
			.jsonPath("$.metrics.weight")
			.isEqualTo(72.5)
			.jsonPath("$.metrics.resting_heart_rate")
			.isEqualTo(58)
			.jsonPath("$.metrics.custom_score")
			.isEqualTo(-325)
			.jsonPath("$.recorded_at")
			.isEqualTo("2026-01-10T07:30:00.123Z")
			.jsonPath("$.created_at")
			.value((String value) -> assertThat(value).matches(TIMESTAMP))
			.returnResult();
		String created = new String(result.getResponseBodyContent());
		String id = com.jayway.jsonpath.JsonPath.read(created, "$.id");
		assertThat(result.getResponseHeaders().getLocation()).hasToString("/api/v1/health/metrics/" + id);
		assertThat(result.getResponseHeaders().getFirst(HttpHeaders.LOCATION))
			.isEqualTo("/api/v1/health/metrics/" + id);
		assertThat(created).doesNotContain("partner");

		String read = new String(this.api.get(this.partner.apiKey(), HealthApi.METRICS + "/{id}", id)
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.CACHE_CONTROL, "no-store")
			.expectBody()
			.returnResult()
			.getResponseBodyContent());
		assertThat(read).isEqualTo(created);
		assertThat(this.api.page(this.partner.apiKey(), HealthApi.METRICS + "?user_id={user}", user).get("data"))
			.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
			.hasSize(1);
	}

	@Test
	void recordedAtDefaultsToTheTimeOfReceiptInMilliseconds() {
		Instant before = this.clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
		Map<String, Object> created = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"u-1\", \"metrics\": {\"steps\": 1200}}");
		Instant after = this.clock.instant();
		Instant recordedAt = Instant.parse((String) created.get("recorded_at"));
		assertThat(recordedAt).isBetween(before, after);
		assertThat(created.get("recorded_at")).isEqualTo(created.get("created_at"));
	}

	@Test
	void theCatalogListsEveryKnownMetricWithUnitAndBounds() {
		Credentials readOnlyAssessments = this.partners.onboard("default", "assessments:read");
		Map<String, Object> catalog = this.api.page(readOnlyAssessments.apiKey(), HealthApi.METRICS + "/catalog");
		assertThat(catalog).containsEntry("next_cursor", null);
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> entries = (List<Map<String, Object>>) catalog.get("data");
		assertThat(entries).extracting((entry) -> entry.get("name"))
			.containsExactly("weight", "height", "bmi", "body_fat", "heart_rate", "resting_heart_rate", "systolic_bp",
					"diastolic_bp", "blood_glucose", "spo2", "body_temperature", "steps", "sleep_duration", "vo2max");
		assertThat(entries.get(0)).containsExactlyInAnyOrderEntriesOf(Map.of("name", "weight", "unit", "kg", "minimum",
				0, "exclusive_minimum", true, "maximum", 700, "exclusive_maximum", false, "integer", false));
		assertThat(entries).filteredOn((entry) -> entry.get("name").equals("steps"))
			.singleElement()
			.satisfies((steps) -> assertThat(steps).containsEntry("integer", true)
				.containsEntry("minimum", 0)
				.containsEntry("exclusive_minimum", false)
				.containsEntry("maximum", 200000));
		assertThat(entries).filteredOn((entry) -> entry.get("name").equals("body_temperature"))
			.singleElement()
			.satisfies((temperature) -> assertThat(temperature).containsEntry("unit", "°C")
				.containsEntry("minimum", 20)
				.containsEntry("maximum", 50));
		this.client.get().uri(HealthApi.METRICS + "/catalog").exchange().expectStatus().isUnauthorized();
		Expect.notAllowed(this.client.post()
			.uri(HealthApi.METRICS + "/catalog")
			.header("x-api-key", this.partner.apiKey())
			.exchange(), "GET");
	}

}
