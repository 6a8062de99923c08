package com.healthpartner.api.assessment;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Submitting, reading, listing and exporting assessments.
 */
class AssessmentsTest extends PartnerTest {

	private static final String LIST = HealthApi.ASSESSMENTS + "?user_id={user}";

	@Override
	protected String newUserId() {
		return "member:" + UUID.randomUUID() + "@gym";
	}

	@Test
	void anAssessmentKeepsItsResponsesAsSentAndIsReadBackTheSame() {
		var result = this.api.post(HealthApi.ASSESSMENTS, this.partner.apiKey(), """
				{"user_id": "%s", "responses": {"smoker": false, "score": 7.50, "answers": [1, "two", null,
				 {"deep": {"er": [true]}}], "note": "Ça va? 🏋️ \\"quoted\\"", "empty": {}}}
				""".formatted(this.user))
			.expectStatus()
			.isCreated()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectHeader()
			.valueEquals(HttpHeaders.CACHE_CONTROL, "no-store")
			.expectBody()
			.jsonPath("$.id")
			.value((String value) -> assertThat(value).matches("[0-9a-f-]{36}"))
			.jsonPath("$.user_id")
			.isEqualTo(this.user)
			.jsonPath("$.responses.smoker")
			.isEqualTo(false)
			.jsonPath("$.responses.score")
			.isEqualTo(7.5)
			.jsonPath("$.responses.answers[1]")
			.isEqualTo("two")
			.jsonPath("$.responses.answers[3].deep.er[0]")
			.isEqualTo(true)
			.jsonPath("$.responses.note")
			.isEqualTo("Ça va? 🏋️ \"quoted\"")
			.jsonPath("$.responses.empty")
			.isMap()
			.jsonPath("$.created_at")
			.value((String value) -> assertThat(value).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"))
			.returnResult();
		String created = new String(result.getResponseBodyContent(), java.nio.charset.StandardCharsets.UTF_8);
		String id = com.jayway.jsonpath.JsonPath.read(created, "$.id");
		assertThat(result.getResponseHeaders().getFirst(HttpHeaders.LOCATION))
			.isEqualTo("/api/v1/health/assessments/" + id);
		byte[] read = this.api.get(this.partner.apiKey(), HealthApi.ASSESSMENTS + "/{id}", id)
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBodyContent();
		assertThat(new String(read, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(created);
		assertThat(this.api.ndjson(this.partner.apiKey(), LIST, this.user)).containsExactly(created);
		// a page passes the stored view through: the same bytes as the answer of the
		// write
		byte[] page = this.api.get(this.partner.apiKey(), LIST, this.user)
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBodyContent();
		assertThat(new String(page, java.nio.charset.StandardCharsets.UTF_8))
			.isEqualTo("{\"data\":[" + created + "],\"next_cursor\":null}");
	}

	@Test
	void assessmentsAreListedOldestFirstAcrossPagesAlsoWithEqualTimes() {
		Instant same = Instant.parse("2026-02-01T09:00:00Z");
		for (int i = 0; i < 5; i++) {
			insert(same, i);
		}
		insert(same.minus(Duration.ofDays(1)), 99);
		insert(same.plus(Duration.ofMillis(1)), 100);
		List<Map<String, Object>> all = this.api.allPages(this.partner.apiKey(), LIST + "&limit=2", this.user);
		assertThat(all).hasSize(7).extracting((r) -> r.get("id")).doesNotHaveDuplicates();
		assertThat(all.get(0).get("responses")).isEqualTo(Map.of("n", 99));
		assertThat(all.get(6).get("responses")).isEqualTo(Map.of("n", 100));
		assertThat(all.subList(1, 6)).extracting((r) -> (String) r.get("id")).isSorted();
		assertThat(all.subList(1, 6))
			.allSatisfy((r) -> assertThat(r).containsEntry("created_at", "2026-02-01T09:00:00.000Z"));
		List<String> lines = this.api.ndjson(this.partner.apiKey(), LIST, this.user);
		assertThat(lines).hasSize(7);
		for (int i = 0; i < 7; i++) {
			assertThat(lines.get(i)).contains((String) all.get(i).get("id"));
		}
	}

	@Test
	void listsNeedAUserAndAValidCursorAndAnUnknownUserHasNone() {
		assertThat(this.api.page(this.partner.apiKey(), LIST, "nobody")).containsEntry("data", List.of())
			.containsEntry("next_cursor", null);
		this.api.get(this.partner.apiKey(), HealthApi.ASSESSMENTS + "?limit=5")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("user_id");
		this.api.get(this.partner.apiKey(), LIST + "&limit=0&cursor=abc", this.user)
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("limit");
		this.api.get(this.partner.apiKey(), LIST + "&cursor=abc", this.user)
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("cursor");
	}

	@Test
	void responsesMustBeANonEmptyObjectOfStorableValues() {
		Map<String, String> refused = Map.of("null", "responses", "{}", "responses", "[1, 2]", "responses", "\"text\"",
				"responses", "{\"score\": 1e309}", "responses.score", "{\"a\": [0, {\"b\": -1e999}]}",
				"responses.a[1].b", "{\"nul\": \"a\\u0000b\"}", "responses.nul", "{\"half\": \"\\ud800\"}",
				"responses.half", "{\"a\\u0000\": 1}", "responses.a\u0000");
		refused.forEach((responses, field) -> Expect
			.problem(
					this.api.post(HealthApi.ASSESSMENTS, this.partner.apiKey(),
							"{\"user_id\": \"" + this.user + "\", \"responses\": " + responses + "}"),
					HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[0].field")
			.value((String named) -> assertThat(named).as(responses).isEqualTo(field)));
		this.api.post(HealthApi.ASSESSMENTS, this.partner.apiKey(), "{\"user_id\": \"" + this.user + "\"}")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("responses");
		StringBuilder many = new StringBuilder("{");
		for (int i = 0; i < 201; i++) {
			many.append((i > 0) ? "," : "").append("\"q").append(i).append("\": ").append(i);
		}
		this.api
			.post(HealthApi.ASSESSMENTS, this.partner.apiKey(),
					"{\"user_id\": \"" + this.user + "\", \"responses\": " + many + "}}")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].message")
			.value((String message) -> assertThat(message).contains("at most 200"));
		this.api
			.post(HealthApi.ASSESSMENTS, this.partner.apiKey(),
					"{\"user_id\": \"" + "u".repeat(10_000) + "\", \"responses\": {\"a\": 1}, \"extra\": 1}")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[*].field")
			.value((List<String> fields) -> assertThat(fields).containsExactlyInAnyOrder("user_id", "extra"));
		this.api.post(HealthApi.ASSESSMENTS, this.partner.apiKey(), "[{\"user_id\": \"u\"}]")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("body");
		assertThat(this.api.allPages(this.partner.apiKey(), LIST, this.user)).isEmpty();

		String twoHundred = many.toString().replace(",\"q200\": 200", "") + "}";
		this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"responses\": " + twoHundred + "}");
		assertThat(this.api.allPages(this.partner.apiKey(), LIST, this.user)).hasSize(1);
	}

	@Test
	void numbersLongerThanAThousandCharactersWrittenOutAreRefusedWithTheirPath() {
		Expect
			.problem(this.api.post(HealthApi.ASSESSMENTS, this.partner.apiKey(), "{\"user_id\": \"" + this.user
					+ "\", \"responses\": {\"zero\": 0e-99999, \"items\": [1, {\"long\": -0e-16000}], \"ok\": 0.5}}"),
					HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[*].field")
			.value((List<String> fields) -> assertThat(fields).containsExactlyInAnyOrder("responses.zero",
					"responses.items[1].long"))
			.jsonPath("$.errors[0].message")
			.value((String message) -> assertThat(message).startsWith("must be at most 1000 characters long"));
		assertThat(this.api.allPages(this.partner.apiKey(), LIST, this.user)).isEmpty();
		this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"responses\": {\"zero\": 0e-998}}");
		assertThat(this.api.allPages(this.partner.apiKey(), LIST, this.user)).hasSize(1);
	}

	@Test
	void createdAtIsTheTimeOfReceiptInMilliseconds() {
		Instant before = this.clock.instant().truncatedTo(ChronoUnit.MILLIS);
		Map<String, Object> created = this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"responses\": {\"a\": 1}}");
		assertThat(Instant.parse((String) created.get("created_at"))).isBetween(before, this.clock.instant());
	}

	private void insert(Instant createdAt, int n) {
		this.db
			.sql("""
					insert into assessments (id, partner_id, user_id, responses, created_at, view)
					select *, assessment_view(id, user_id, null, null, responses, api_time(created_at), api_time(created_at))
					from (select cast(:id as uuid) as id, cast(:partnerId as uuid) as partner_id, cast(:userId as text) as user_id,
					             cast(:responses as jsonb) as responses, cast(:createdAt as timestamptz) as created_at) r
					""")
			.bind("id", UUID.randomUUID())
			.bind("partnerId", UUID.fromString(this.partner.partnerId()))
			.bind("userId", this.user)
			.bind("responses", "{\"n\": " + n + "}")
			.bind("createdAt", createdAt)
			.then()
			.block(Duration.ofSeconds(10));
	}

}
