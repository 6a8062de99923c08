package com.healthpartner.api.records;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code DELETE} of one record: {@code 204}, then {@code 404} everywhere, its client
 * record id free again, a {@code deleted} audit event; unknown, another partner's or
 * already deleted records are {@code 404}; the write scope is needed.
 */
class DeletingRecordsTest extends PartnerTest {

	@Test
	void aDeletedMetricsRecordIsGoneFromReadsListsAndExportsAndItsClientRecordIdIsFree() {
		Map<String, Object> kept = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				ClientRecordIdsTest.metrics(this.user, "keep", 0, 70.0, null));
		Map<String, Object> gone = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				ClientRecordIdsTest.metrics(this.user, "scale-9", 3, 71.0, null));
		delete(HealthApi.METRICS + "/" + gone.get("id"), this.partner.apiKey()).expectStatus().isNoContent();

		this.api.get(this.partner.apiKey(), HealthApi.METRICS + "/{id}", gone.get("id")).expectStatus().isNotFound();
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user))
			.extracting((record) -> record.get("id"))
			.containsExactly(kept.get("id"));
		assertThat(this.api.ndjson(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user)).hasSize(1);
		delete(HealthApi.METRICS + "/" + gone.get("id"), this.partner.apiKey()).expectStatus()
			.isNotFound()
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("not_found");

		Map<String, Object> again = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				ClientRecordIdsTest.metrics(this.user, "scale-9", 0, 72.0, null));
		assertThat(again.get("id")).isNotEqualTo(gone.get("id"));
		assertThat(auditActions()).contains("delete");
	}

	@Test
	void anAssessmentIsDeletedLikewise() {
		Map<String, Object> created = this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"responses\": {\"q\": 1}}");
		delete(HealthApi.ASSESSMENTS + "/" + created.get("id"), this.partner.apiKey()).expectStatus().isNoContent();
		this.api.get(this.partner.apiKey(), HealthApi.ASSESSMENTS + "/{id}", created.get("id"))
			.expectStatus()
			.isNotFound();
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.ASSESSMENTS + "?user_id={u}", this.user))
			.isEmpty();
	}

	@Test
	void unknownAndOtherPartnersRecordsAreNotFoundAndTheWriteScopeIsNeeded() {
		Map<String, Object> created = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}");
		Credentials other = this.partners.onboard();
		delete(HealthApi.METRICS + "/" + created.get("id"), other.apiKey()).expectStatus().isNotFound();
		delete(HealthApi.METRICS + "/" + UUID.randomUUID(), this.partner.apiKey()).expectStatus().isNotFound();
		delete(HealthApi.METRICS + "/not-an-id", this.partner.apiKey()).expectStatus().isNotFound();
		Credentials readOnly = this.partners.issueKey(this.partner.partnerId(),
				Map.of("scopes", java.util.List.of("metrics:read", "assessments:write")));
		delete(HealthApi.METRICS + "/" + created.get("id"), readOnly.apiKey()).expectStatus()
			.isForbidden()
			.expectBody()
			.jsonPath("$.detail")
			.value((String detail) -> assertThat(detail).contains("metrics:write"));
		this.api.get(this.partner.apiKey(), HealthApi.METRICS + "/{id}", created.get("id")).expectStatus().isOk();
	}

	private org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec delete(String path, String key) {
		return this.client.delete().uri(path).header("x-api-key", key).exchange();
	}

	private java.util.List<String> auditActions() {
		return this.db.sql("select action from audit_events where partner_id = cast(:p as uuid) and user_id = :u")
			.bind("p", this.partner.partnerId())
			.bind("u", this.user)
			.map((row) -> row.get("action", String.class))
			.all()
			.collectList()
			.block();
	}

}
