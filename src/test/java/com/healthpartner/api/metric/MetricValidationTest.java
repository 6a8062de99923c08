package com.healthpartner.api.metric;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every rule of a metrics record: each bad field is named with its path, and a refused
 * record is not stored.
 */
class MetricValidationTest extends PartnerTest {

	@Test
	void knownMetricsAreCheckedAgainstTheirBoundsAndUnits() {
		Map<String, String> refused = Map.ofEntries(Map.entry("\"weight\": 0", "greater than 0 and at most 700 (kg)"),
				Map.entry("\"weight\": 700.01", "greater than 0 and at most 700 (kg)"),
				Map.entry("\"height\": -1", "(cm)"), Map.entry("\"bmi\": 200.5", "(kg/m²)"),
				Map.entry("\"body_fat\": -0.1", "at least 0 and at most 100 (%)"),
				Map.entry("\"heart_rate\": 0", "(bpm)"), Map.entry("\"resting_heart_rate\": 401", "(bpm)"),
				Map.entry("\"systolic_bp\": 0", "(mmHg)"), Map.entry("\"diastolic_bp\": 400.1", "(mmHg)"),
				Map.entry("\"blood_glucose\": 0", "(mmol/L)"), Map.entry("\"spo2\": 100.5", "(%)"),
				Map.entry("\"body_temperature\": 19.99", "at least 20 and at most 50 (°C)"),
				Map.entry("\"steps\": 100.5", "a whole number at least 0 and at most 200000 (count)"),
				Map.entry("\"steps\": 200001", "(count)"), Map.entry("\"steps\": -1", "(count)"),
				Map.entry("\"sleep_duration\": 24.5", "(h)"), Map.entry("\"vo2max\": 0", "(mL/kg/min)"));
		refused.forEach((metric, message) -> {
			String name = metric.substring(1, metric.indexOf('"', 1));
			postMetrics("{" + metric + "}").expectStatus()
				.isBadRequest()
				.expectBody()
				.jsonPath("$.code")
				.isEqualTo("validation_failed")
				.jsonPath("$.errors.length()")
				.isEqualTo(1)
				.jsonPath("$.errors[0].field")
				.isEqualTo("metrics." + name)
				.jsonPath("$.errors[0].message")
				.value((String text) -> assertThat(text).as(metric).contains(message));
		});
		assertThat(stored()).isEmpty();
	}

	@Test
	void boundsAreInclusiveWhereTheCatalogSaysSo() {
		String atTheEdges = """
				{"weight": 700, "height": 300, "bmi": 200, "body_fat": 0, "heart_rate": 400, "resting_heart_rate": 0.1,
				 "systolic_bp": 400, "diastolic_bp": 1, "blood_glucose": 100, "spo2": 0, "body_temperature": 20,
				 "steps": 100.0, "sleep_duration": 24, "vo2max": 120, "an_unknown_metric": -1e300}
				""";
		postMetrics(atTheEdges).expectStatus().isCreated();
		postMetrics("{\"steps\": 200000, \"body_fat\": 100, \"spo2\": 100, \"body_temperature\": 50}").expectStatus()
			.isCreated();
		assertThat(stored()).hasSize(2);
	}

	@Test
	void nonFiniteAndNonNumericValuesAreRefusedWithTheirPath() {
		postMetrics("{\"weight\": 1e309, \"height\": \"NaN\", \"bmi\": null, \"steps\": true, \"other\": 1e999, "
				+ "\"tiny\": 1e-400, \"nested\": {\"a\": 1}, \"list\": [1]}")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[*].field")
			.value((List<String> fields) -> assertThat(fields).containsExactlyInAnyOrder("metrics.weight",
					"metrics.height", "metrics.bmi", "metrics.steps", "metrics.other", "metrics.tiny", "metrics.nested",
					"metrics.list"))
			.jsonPath("$.errors[0].message")
			.isEqualTo("must be a finite number");
		Expect.problem(
				this.api.post(HealthApi.METRICS, this.partner.apiKey(),
						"{\"user_id\": \"u\", \"metrics\": {\"weight\": NaN}}"),
				HttpStatus.BAD_REQUEST, "malformed_json");
		assertThat(stored()).isEmpty();
	}

	@Test
	void numbersLongerThanAThousandCharactersWrittenOutAreRefusedWithTheirPath() {
		// zeros, so finite, but PostgreSQL refuses 0e-99999 and would keep 0e-16000 as
		// 16,002 characters; 0.0e-999 would come back as 1,002
		Expect
			.problem(postMetrics(
					"{\"custom_zero\": 0e-99999, \"custom_long\": 0e-16000, \"body_fat\": 0.0e-999, \"weight\": 70}"),
					HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[*].field")
			.value((List<String> fields) -> assertThat(fields).containsExactlyInAnyOrder("metrics.custom_zero",
					"metrics.custom_long", "metrics.body_fat"))
			.jsonPath("$.errors[*].message")
			.value((List<String> messages) -> assertThat(messages)
				.allSatisfy((message) -> assertThat(message).startsWith("must be at most 1000 characters long")));
		assertThat(stored()).isEmpty();
		postMetrics("{\"custom_zero\": 0e-998, \"tiny\": -1e-300}").expectStatus().isCreated();
		assertThat(stored()).hasSize(1);
	}

	@Test
	void metricNamesAndCountAreChecked() {
		postMetrics(
				"{\"Weight\": 70, \"9lives\": 1, \"with-dash\": 2, \"" + "a".repeat(65) + "\": 3, \"ok_name_2\": 4}")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[*].field")
			.value((List<String> fields) -> assertThat(fields).containsExactlyInAnyOrder("metrics.Weight",
					"metrics.9lives", "metrics.with-dash", "metrics." + "a".repeat(65)));
		String sixtyFour = IntStream.range(0, 64)
			.mapToObj((i) -> "\"m" + i + "\": " + i)
			.collect(Collectors.joining(","));
		postMetrics("{" + sixtyFour + "}").expectStatus().isCreated();
		postMetrics("{" + sixtyFour + ", \"m64\": 64}").expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("metrics")
			.jsonPath("$.errors[0].message")
			.value((String message) -> assertThat(message).contains("at most 64"));
		for (String metrics : List.of("{}", "[]", "\"weight\"", "null")) {
			postMetrics(metrics).expectStatus()
				.isBadRequest()
				.expectBody()
				.jsonPath("$.errors[0].field")
				.isEqualTo("metrics");
		}
		this.api.post(HealthApi.METRICS, this.partner.apiKey(), "{\"user_id\": \"" + this.user + "\"}")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("metrics")
			.jsonPath("$.errors[0].message")
			.value((String message) -> assertThat(message).startsWith("is required"));
		assertThat(stored()).hasSize(1);
	}

	@Test
	void userIdFollowsTheContractRule() {
		for (String userId : List.of("\"\"", "\"" + "u".repeat(129) + "\"", "\"" + "u".repeat(10_000) + "\"",
				"\"has space\"", "\"ünïcode\"", "\"semi;colon\"", "42", "null", "{\"id\": 1}")) {
			this.api
				.post(HealthApi.METRICS, this.partner.apiKey(),
						"{\"user_id\": " + userId + ", \"metrics\": {\"weight\": 70}}")
				.expectStatus()
				.isBadRequest()
				.expectBody()
				.jsonPath("$.errors.length()")
				.isEqualTo(1)
				.jsonPath("$.errors[0].field")
				.isEqualTo("user_id");
		}
		String longest = "A-z0.9_:@" + "x".repeat(119);
		this.api
			.post(HealthApi.METRICS, this.partner.apiKey(),
					"{\"user_id\": \"" + longest + "\", \"metrics\": {\"weight\": 70}}")
			.expectStatus()
			.isCreated()
			.expectBody()
			.jsonPath("$.user_id")
			.isEqualTo(longest);
	}

	@Test
	void recordedAtMustBeADateTimeWithOffsetAtMostFiveMinutesAhead() {
		Instant now = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);
		for (String recordedAt : List.of("\"2026-01-10\"", "\"2026-01-10T08:30:00\"", "\"2026-01-10 08:30:00Z\"",
				"\"10/01/2026\"", "\"2026-02-30T00:00:00Z\"", "\"2026-01-10T25:00:00Z\"", "1736500000",
				"\"" + now.plus(Duration.ofMinutes(5)).plusSeconds(2) + "\"")) {
			this.api
				.post(HealthApi.METRICS, this.partner.apiKey(),
						"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}, \"recorded_at\": "
								+ recordedAt + "}")
				.expectStatus()
				.isBadRequest()
				.expectBody()
				.jsonPath("$.errors[0].field")
				.isEqualTo("recorded_at");
		}
		String almostFiveMinutesAhead = now.plus(Duration.ofMinutes(4)).plusSeconds(50).toString();
		this.api
			.post(HealthApi.METRICS, this.partner.apiKey(),
					"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}, \"recorded_at\": \""
							+ almostFiveMinutesAhead + "\"}")
			.expectStatus()
			.isCreated();
		assertThat(stored()).hasSize(1);
	}

	@Test
	void everyBadFieldIsListedAtOnceAndUnknownFieldsAreNamed() {
		this.api.post(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"bad id\", \"metrics\": {\"weight\": -1, \"bmi\": \"x\"}, \"recorded_at\": \"soon\", "
						+ "\"note\": \"hi\", \"partner_id\": \"someone-else\"}")
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.detail")
			.isEqualTo("6 fields are invalid")
			.jsonPath("$.instance")
			.isEqualTo(HealthApi.METRICS)
			.jsonPath("$.errors[*].field")
			.value((List<String> fields) -> assertThat(fields).containsExactlyInAnyOrder("user_id", "metrics.weight",
					"metrics.bmi", "recorded_at", "note", "partner_id"));
	}

	@Test
	void bodiesThatAreNotAJsonObjectAreRefused() {
		this.api.post(HealthApi.METRICS, this.partner.apiKey(), "[{\"user_id\": \"u\", \"metrics\": {\"weight\": 1}}]")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("body");
		Expect.problem(this.api.post(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"u\", \"metrics\": {\"weight\": 1}"), HttpStatus.BAD_REQUEST, "malformed_json");
		Expect.problem(
				this.api.post(HealthApi.METRICS, this.partner.apiKey(),
						"{\"user_id\": \"u\", \"metrics\": {\"weight\": 1, \"weight\": 2}}"),
				HttpStatus.BAD_REQUEST, "malformed_json");
		this.client.post()
			.uri(HealthApi.METRICS)
			.header("x-api-key", this.partner.apiKey())
			.contentType(MediaType.TEXT_PLAIN)
			.bodyValue("weight=70")
			.exchange()
			.expectStatus()
			.isEqualTo(415);
		this.api
			.post(HealthApi.METRICS, this.partner.apiKey(),
					"{\"user_id\": \"u\", \"metrics\": {\"weight\": 1}, \"pad\": \"" + "x".repeat(70_000) + "\"}")
			.expectStatus()
			.isEqualTo(413);
	}

	private org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec postMetrics(String metrics) {
		return this.api.post(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"metrics\": " + metrics + "}");
	}

	private List<Map<String, Object>> stored() {
		return this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={user}", this.user);
	}

}
