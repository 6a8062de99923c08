package com.healthpartner.api.records;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code client_record_id} and {@code client_record_version} on both POSTs: what each
 * outcome answers ({@code Record-Outcome}), what is stored, the refusals, idempotent
 * replays, and racing writers.
 */
class ClientRecordIdsTest extends PartnerTest {

	@Test
	void aNewClientRecordIdIsCreatedAHigherVersionUpdatesItAndTheSameOrLowerChangesNothing() {
		String created = post(metrics(this.user, "scale-1", 1, 70.5, "2026-01-10T08:00:00Z"), 201, "created");
		String id = JsonPath.read(created, "$.id");
		assertThat((String) JsonPath.read(created, "$.client_record_id")).isEqualTo("scale-1");
		assertThat((Integer) JsonPath.read(created, "$.client_record_version")).isEqualTo(1);
		assertThat((String) JsonPath.read(created, "$.updated_at")).isEqualTo(JsonPath.read(created, "$.created_at"));

		this.clock.advance(java.time.Duration.ofSeconds(5));
		String updated = post(metrics(this.user, "scale-1", 2, 71.0, "2026-01-10T09:00:00Z"), 200, "updated");
		assertThat((String) JsonPath.read(updated, "$.id")).isEqualTo(id);
		assertThat((Double) JsonPath.read(updated, "$.metrics.weight")).isEqualTo(71.0);
		assertThat((String) JsonPath.read(updated, "$.recorded_at")).isEqualTo("2026-01-10T09:00:00.000Z");
		assertThat((String) JsonPath.read(updated, "$.created_at")).isEqualTo(JsonPath.read(created, "$.created_at"));
		assertThat((String) JsonPath.read(updated, "$.updated_at"))
			.isNotEqualTo(JsonPath.read(created, "$.created_at"));

		String same = post(metrics(this.user, "scale-1", 2, 99.0, "2026-01-10T10:00:00Z"), 200, "unchanged");
		assertThat(same).isEqualTo(updated);
		String lower = post(metrics(this.user, "scale-1", 1, 99.0, "2026-01-10T10:00:00Z"), 200, "unchanged");
		assertThat(lower).isEqualTo(updated);

		String read = new String(this.api.get(this.partner.apiKey(), HealthApi.METRICS + "/{id}", id)
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBodyContent());
		assertThat(read).isEqualTo(updated);
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user)).hasSize(1);
	}

	@Test
	void anUpdateWithoutRecordedAtSetsItToTheTimeOfReceipt() {
		post(metrics(this.user, "scale-2", 0, 70.0, "2026-01-10T08:00:00Z"), 201, "created");
		String updated = post(
				"""
						{"user_id": "%s", "client_record_id": "scale-2", "client_record_version": 1, "metrics": {"weight": 70.2}}
						"""
					.formatted(this.user),
				200, "updated");
		assertThat((String) JsonPath.read(updated, "$.recorded_at")).isEqualTo(JsonPath.read(updated, "$.updated_at"));
	}

	@Test
	void assessmentsHaveTheirOwnNamespaceAndTheSameRules() {
		post(metrics(this.user, "shared-id", 0, 70.0, null), 201, "created");
		String created = postAssessment("shared-id", 0, "{\"q\": 1}", 201, "created");
		assertThat((Integer) JsonPath.read(created, "$.client_record_version")).isZero();
		String updated = postAssessment("shared-id", 5, "{\"q\": 2}", 200, "updated");
		assertThat((Integer) JsonPath.read(updated, "$.responses.q")).isEqualTo(2);
		assertThat((String) JsonPath.read(updated, "$.id")).isEqualTo(JsonPath.read(created, "$.id"));
		postAssessment("shared-id", 4, "{\"q\": 3}", 200, "unchanged");
	}

	@Test
	void aPostWithoutClientRecordIdIsCreatedAsBeforeWithNullClientFields() {
		String created = post("""
				{"user_id": "%s", "metrics": {"weight": 70.0}}
				""".formatted(this.user), 201, "created");
		assertThat(created).contains("\"client_record_id\":null");
		assertThat(created).contains("\"client_record_version\":null");
		post("""
				{"user_id": "%s", "metrics": {"weight": 70.0}}
				""".formatted(this.user), 201, "created");
	}

	@Test
	void aClientRecordIdOfAnotherUserIsAConflictAndNothingIsWritten() {
		post(metrics(this.user, "scale-3", 1, 70.0, null), 201, "created");
		Expect
			.problem(this.api.post(HealthApi.METRICS, this.partner.apiKey(),
					metrics("someone-else", "scale-3", 2, 80.0, null)), HttpStatus.CONFLICT, "conflict")
			.jsonPath("$.detail")
			.value((String detail) -> assertThat(detail).contains("client_record_id"));
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", "someone-else"))
			.isEmpty();
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user))
			.singleElement()
			.satisfies((record) -> assertThat(record.get("client_record_version")).isEqualTo(1));
	}

	@Test
	void badClientFieldsAreRefusedNamingEachField() {
		for (String[] bad : new String[][] { { "\"client_record_version\": 1", "client_record_version" },
				{ "\"client_record_id\": \"has space\"", "client_record_id" },
				{ "\"client_record_id\": 42", "client_record_id" },
				{ "\"client_record_id\": \"" + "x".repeat(129) + "\"", "client_record_id" },
				{ "\"client_record_id\": \"a\", \"client_record_version\": -1", "client_record_version" },
				{ "\"client_record_id\": \"a\", \"client_record_version\": 1.5", "client_record_version" },
				{ "\"client_record_id\": \"a\", \"client_record_version\": 9007199254740992", "client_record_version" },
				{ "\"client_record_id\": \"a\", \"client_record_version\": \"1\"", "client_record_version" } }) {
			Expect
				.problem(
						this.api.post(HealthApi.METRICS, this.partner.apiKey(),
								"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}, " + bad[0] + "}"),
						HttpStatus.BAD_REQUEST, "validation_failed")
				.jsonPath("$.errors[*].field")
				.isEqualTo(List.of(bad[1]));
		}
		this.api
			.post(HealthApi.ASSESSMENTS, this.partner.apiKey(),
					"{\"user_id\": \"" + this.user + "\", \"responses\": {\"q\": 1}, \"client_record_version\": 3}")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[*].field")
			.isEqualTo(List.of("client_record_version"));
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user)).isEmpty();
	}

	@Test
	void anIdempotentReplayReturnsTheFirstAnswersRecordOutcome() {
		post(metrics(this.user, "scale-4", 1, 70.0, null), 201, "created");
		String body = metrics(this.user, "scale-4", 2, 71.0, null);
		EntityExchangeResult<byte[]> first = this.api
			.post(HealthApi.METRICS, this.partner.apiKey(), body, "Idempotency-Key", "k-" + this.user)
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("Record-Outcome", "updated")
			.expectBody()
			.returnResult();
		this.api.post(HealthApi.METRICS, this.partner.apiKey(), body, "Idempotency-Key", "k-" + this.user)
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("Record-Outcome", "updated")
			.expectHeader()
			.valueEquals("Idempotent-Replayed", "true")
			.expectBody()
			.consumeWith(
					(again) -> assertThat(again.getResponseBodyContent()).isEqualTo(first.getResponseBodyContent()));
		String createdBody = metrics(this.user, "scale-5", 0, 70.0, null);
		for (int i = 0; i < 2; i++) {
			this.api.post(HealthApi.METRICS, this.partner.apiKey(), createdBody, "Idempotency-Key", "c-" + this.user)
				.expectStatus()
				.isCreated()
				.expectHeader()
				.valueEquals("Record-Outcome", "created")
				.expectHeader()
				.exists("Location");
		}
	}

	@Test
	void racingWritersOfOneClientRecordIdStoreOneRecordWithTheHighestVersion() throws Exception {
		int writers = 24;
		List<Integer> versions = new ArrayList<>();
		for (int i = 0; i < writers; i++) {
			versions.add(ThreadLocalRandom.current().nextInt(0, 1000));
		}
		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			List<Future<Integer>> answers = new ArrayList<>();
			for (int version : versions) {
				answers.add(pool.submit(() -> this.api
					.post(HealthApi.METRICS, this.partner.apiKey(),
							metrics(this.user, "race", version, 40.0 + version / 100.0, null))
					.returnResult(String.class)
					.getStatus()
					.value()));
			}
			for (Future<Integer> answer : answers) {
				assertThat(answer.get()).isIn(200, 201);
			}
		}
		finally {
			pool.shutdown();
		}
		int highest = versions.stream().mapToInt(Integer::intValue).max().orElseThrow();
		List<Map<String, Object>> stored = this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}",
				this.user);
		assertThat(stored).singleElement()
			.satisfies((record) -> assertThat(record.get("client_record_version")).isEqualTo(highest));
		Long created = this.db
			.sql("select count(*) as n from changes where partner_id = cast(:p as uuid) and kind = 'created'")
			.bind("p", this.partner.partnerId())
			.map((row) -> row.get("n", Long.class))
			.one()
			.block();
		assertThat(created).isEqualTo(1);
	}

	private String post(String json, int status, String outcome) {
		return new String(this.api.post(HealthApi.METRICS, this.partner.apiKey(), json)
			.expectStatus()
			.isEqualTo(status)
			.expectHeader()
			.valueEquals("Record-Outcome", outcome)
			.expectBody()
			.returnResult()
			.getResponseBodyContent());
	}

	private String postAssessment(String clientId, long version, String responses, int status, String outcome) {
		return new String(this.api.post(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"%s\", \"client_record_id\": \"%s\", \"client_record_version\": %d, \"responses\": %s}"
					.formatted(this.user, clientId, version, responses))
			.expectStatus()
			.isEqualTo(status)
			.expectHeader()
			.valueEquals("Record-Outcome", outcome)
			.expectBody()
			.returnResult()
			.getResponseBodyContent());
	}

	static String metrics(String user, String clientId, long version, double weight, String recordedAt) {
		return "{\"user_id\": \"%s\", \"client_record_id\": \"%s\", \"client_record_version\": %d, \"metrics\": {\"weight\": %s}%s}"
			.formatted(user, clientId, version, weight,
					(recordedAt != null) ? ", \"recorded_at\": \"" + recordedAt + "\"" : "");
	}

}
