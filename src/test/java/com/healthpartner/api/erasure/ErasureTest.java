package com.healthpartner.api.erasure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;
import com.healthpartner.api.support.Partners.Credentials;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code DELETE /api/v1/health/users/{user_id}}: the {@code 202} with its status
 * resource, records hidden from every read at once, records written afterwards kept, the
 * feed's {@code user_erased}, the audit event, and the scopes.
 */
class ErasureTest extends PartnerTest {

	private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() {
	};

	@Autowired
	private ErasureWorker worker;

	@Test
	@SuppressWarnings("unchecked")
	void anErasureHidesTheUsersRecordsAtOnceAndCompletesWithItsCounts() {
		Map<String, Object> metric = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"client_record_id\": \"m1\", \"metrics\": {\"weight\": 70}}");
		this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 71}}");
		this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"responses\": {\"q\": 1}}");
		Map<String, Object> otherUser = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"other-" + this.user + "\", \"metrics\": {\"weight\": 60}}");
		var answer = this.client.delete()
			.uri("/api/v1/health/users/{u}", this.user)
			.header("x-api-key", this.partner.apiKey())
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectBody(MAP)
			.returnResult();
		Map<String, Object> erasure = answer.getResponseBody();
		assertThat(erasure).isNotNull();
		assertThat(answer.getResponseHeaders().getLocation())
			.hasToString("/api/v1/health/erasures/" + erasure.get("erasure_id"));
		assertThat(erasure).containsEntry("user_id", this.user)
			.containsEntry("status", "pending")
			.containsEntry("completed_at", null)
			.containsEntry("metrics_deleted", 0)
			.containsEntry("assessments_deleted", 0);

		// from the 202 on, nothing shows them (whether or not the worker has run yet)
		this.api.get(this.partner.apiKey(), HealthApi.METRICS + "/{id}", metric.get("id")).expectStatus().isNotFound();
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user)).isEmpty();
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.ASSESSMENTS + "?user_id={u}", this.user))
			.isEmpty();
		assertThat(this.api.ndjson(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user)).isEmpty();
		List<Map<String, Object>> feed = this.api.page(this.partner.apiKey(), "/api/v1/health/changes?limit=1000")
			.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().equals("data"))
			.map((entry) -> (List<Map<String, Object>>) entry.getValue())
			.findFirst()
			.orElseThrow();
		assertThat(feed).filteredOn((change) -> this.user.equals(change.get("user_id")))
			.singleElement()
			.satisfies((change) -> assertThat(change).containsEntry("kind", "user_erased")
				.containsEntry("resource", null)
				.containsEntry("id", null)
				.containsEntry("record", null));
		assertThat(feed).extracting((change) -> change.get("id")).contains(otherUser.get("id"));

		// written after the request: kept, and its client record id is free
		Map<String, Object> after = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"client_record_id\": \"m1\", \"metrics\": {\"weight\": 72}}");
		assertThat(after.get("id")).isNotEqualTo(metric.get("id"));

		Map<String, Object> done = completed((String) erasure.get("erasure_id"));
		assertThat(done).containsEntry("metrics_deleted", 2).containsEntry("assessments_deleted", 1);
		assertThat(done.get("completed_at")).isNotNull();
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user))
			.extracting((record) -> record.get("id"))
			.containsExactly(after.get("id"));
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", "other-" + this.user))
			.hasSize(1);
		assertThat(count("select count(*) as n from changes where partner_id = cast(:p as uuid) and user_id = :u"
				+ " and kind <> 'user_erased' and record_id <> cast(:keep as uuid)", after.get("id")))
			.isZero();
		assertThat(count(
				"select count(*) as n from audit_events where partner_id = cast(:p as uuid) and user_id = :u"
						+ " and action = 'erase' and resource = 'users' and id <> cast(:keep as uuid)",
				UUID.randomUUID()))
			.isEqualTo(1);
	}

	@Test
	void aUserWithNoRecordsIsErasedTooWithTheSameAnswer() {
		Map<String, Object> erasure = this.api.erase(this.partner.apiKey(), "nobody-" + this.user);
		assertThat(erasure).containsEntry("status", "pending");
		assertThat(completed((String) erasure.get("erasure_id"))).containsEntry("metrics_deleted", 0)
			.containsEntry("assessments_deleted", 0);
	}

	@Test
	void erasingNeedsBothWriteScopesAndTheStatusEitherAndABadUserIdIsRefused() {
		Credentials metricsWriter = this.partners.issueKey(this.partner.partnerId(),
				Map.of("scopes", List.of("metrics:write", "metrics:read", "assessments:read")));
		this.client.delete()
			.uri("/api/v1/health/users/{u}", this.user)
			.header("x-api-key", metricsWriter.apiKey())
			.exchange()
			.expectStatus()
			.isForbidden()
			.expectBody()
			.jsonPath("$.detail")
			.value((String detail) -> assertThat(detail).contains("assessments:write"));
		this.client.delete()
			.uri("/api/v1/health/users/{u}", "has space")
			.header("x-api-key", this.partner.apiKey())
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("user_id");
		Map<String, Object> erasure = this.api.erase(this.partner.apiKey(), this.user);
		this.api.get(metricsWriter.apiKey(), "/api/v1/health/erasures/{id}", erasure.get("erasure_id"))
			.expectStatus()
			.isOk();
		Credentials reader = this.partners.issueKey(this.partner.partnerId(),
				Map.of("scopes", List.of("metrics:read")));
		this.api.get(reader.apiKey(), "/api/v1/health/erasures/{id}", erasure.get("erasure_id"))
			.expectStatus()
			.isForbidden();
		Credentials other = this.partners.onboard();
		this.api.get(other.apiKey(), "/api/v1/health/erasures/{id}", erasure.get("erasure_id"))
			.expectStatus()
			.isNotFound();
	}

	private Map<String, Object> completed(String erasureId) {
		return eventually(Duration.ofSeconds(20), () -> {
			this.worker.wake();
			return this.api.page(this.partner.apiKey(), "/api/v1/health/erasures/{id}", erasureId);
		}, (status) -> "completed".equals(status.get("status")));
	}

	private long count(String sql, Object keep) {
		return this.db.sql(sql)
			.bind("p", this.partner.partnerId())
			.bind("u", this.user)
			.bind("keep", keep.toString())
			.map((row) -> row.get("n", Long.class))
			.one()
			.block();
	}

}
