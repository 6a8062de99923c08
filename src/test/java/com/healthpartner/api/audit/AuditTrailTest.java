package com.healthpartner.api.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.http.HttpStatus;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;

import com.healthpartner.api.problem.RequestIds;
import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Every read and write of health data leaves an audit event (partner, key, user, action,
 * count), written in batches off the request path and readable by an administrator.
 */
class AuditTrailTest extends IntegrationTest {

	private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() {
	};

	@Autowired
	BatchedAuditTrail trail;

	@Autowired
	AuditRepository repository;

	@Test
	void aPartnersJourneyIsAuditedWithWhoWhatAndHowMany() {
		HealthApi api = new HealthApi(this.client);
		Credentials partner = this.partners.onboard();
		Credentials other = this.partners.onboard();
		String user = "member-" + UUID.randomUUID();
		Map<String, Object> metric = api.create(HealthApi.METRICS, partner.apiKey(),
				"{\"user_id\": \"" + user + "\", \"metrics\": {\"weight\": 72.5}}");
		api.create(HealthApi.METRICS, partner.apiKey(),
				"{\"user_id\": \"" + user + "\", \"metrics\": {\"steps\": 100}}");
		api.create(HealthApi.ASSESSMENTS, partner.apiKey(),
				"{\"user_id\": \"" + user + "\", \"responses\": {\"smoker\": false}}");
		api.get(partner.apiKey(), HealthApi.METRICS + "/{id}", metric.get("id")).expectStatus().isOk();
		String pageRequest = "audit-page-" + UUID.randomUUID();
		this.client.get()
			.uri(HealthApi.METRICS + "?user_id={user}&limit=1", user)
			.header("x-api-key", partner.apiKey())
			.header(RequestIds.HEADER, pageRequest)
			.exchange()
			.expectStatus()
			.isOk();
		assertThat(api.ndjson(partner.apiKey(), HealthApi.METRICS + "?user_id={user}", user)).hasSize(2);
		// the same user id of another partner is another person, audited apart
		api.create(HealthApi.METRICS, other.apiKey(), "{\"user_id\": \"" + user + "\", \"metrics\": {\"weight\": 90}}");

		List<Map<String, Object>> events = audit("?partner_id={p}&user_id={u}", 6, partner.partnerId(), user);

		assertThat(events).extracting("action", "resource", "record_count")
			.containsExactly(tuple("write", "metrics", 1), tuple("write", "metrics", 1),
					tuple("write", "assessments", 1), tuple("read", "metrics", 1), tuple("read", "metrics", 1),
					tuple("read", "metrics", 2));
		assertThat(events).allSatisfy((event) -> {
			assertThat(event.get("partner_id")).isEqualTo(partner.partnerId());
			assertThat(event.get("key_id")).isEqualTo(partner.keyId());
			assertThat(event.get("user_id")).isEqualTo(user);
			assertThat((String) event.get("request_id")).isNotBlank();
		});
		// a page's event names the request that read it (taken as the page's read began)
		assertThat(events.get(4).get("request_id")).isEqualTo(pageRequest);
		assertThat(audit("?partner_id={p}", 1, other.partnerId())).extracting("action", "user_id")
			.containsExactly(tuple("write", user));
	}

	@Test
	void theTrailIsFilteredByTimeAndPaged() {
		HealthApi api = new HealthApi(this.client);
		Credentials partner = this.partners.onboard();
		String user = "member-" + UUID.randomUUID();
		for (int i = 0; i < 3; i++) {
			api.create(HealthApi.METRICS, partner.apiKey(),
					"{\"user_id\": \"" + user + "\", \"metrics\": {\"weight\": 70}}");
		}
		List<Map<String, Object>> all = audit("?partner_id={p}", 3, partner.partnerId());
		String firstAt = (String) all.get(0).get("at");
		String lastAt = (String) all.get(2).get("at");

		assertThat(audit("?partner_id={p}&from={from}&to={to}", 3, partner.partnerId(), firstAt, lastAt)).hasSize(3);
		assertThat(audit("?partner_id={p}&to={to}", 0, partner.partnerId(),
				Instant.parse(firstAt).minusMillis(1).toString()))
			.isEmpty();

		Map<String, Object> first = page("/admin/v1/audit?partner_id={p}&limit=2", partner.partnerId());
		assertThat((List<?>) first.get("data")).hasSize(2);
		Map<String, Object> second = page("/admin/v1/audit?partner_id={p}&limit=2&cursor={c}", partner.partnerId(),
				first.get("next_cursor"));
		assertThat((List<?>) second.get("data")).hasSize(1);
		assertThat(second.get("next_cursor")).isNull();
		// a cursor is bound to its filters
		Partners
			.admin(this.client.get()
				.uri("/admin/v1/audit?partner_id={p}&user_id=someone&cursor={c}", partner.partnerId(),
						first.get("next_cursor")))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("cursor");
	}

	@Test
	void aBatchWrittenAgainIsStoredOnce() {
		// a write given up on at its deadline may have committed all the same; its batch
		// goes back to the queue and is written again
		UUID partnerId = UUID.randomUUID();
		List<AuditEvent> batch = List.of(event(partnerId, 1), event(partnerId, 2), event(partnerId, 3));
		this.repository.insert(batch).as(StepVerifier::create).verifyComplete();
		this.repository.insert(batch).as(StepVerifier::create).verifyComplete();

		assertThat(audit("?partner_id={p}", 3, partnerId)).extracting("record_count").containsExactly(1, 2, 3);
	}

	@Test
	void badFiltersAreRefusedNamingTheParameterAndPartnersCannotReadTheTrail() {
		Expect
			.problem(Partners.admin(this.client.get().uri("/admin/v1/audit?partner_id=42&user_id=a%20b&from=yesterday"))
				.exchange(), HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[*].field")
			.isEqualTo(List.of("partner_id", "user_id", "from"));
		Expect.problem(
				Partners.admin(this.client.get().uri("/admin/v1/audit?from=2026-11-02&to=2026-11-01")).exchange(),
				HttpStatus.BAD_REQUEST, "invalid_date_range");
		Credentials partner = this.partners.onboard();
		Expect.problem(this.client.get().uri("/admin/v1/audit").header("x-api-key", partner.apiKey()).exchange(),
				HttpStatus.UNAUTHORIZED, "invalid_admin_token");
	}

	/**
	 * The events of the filter once {@code expected} of them are written: events are
	 * written in batches, and an export's event when its stream ends.
	 */
	private List<Map<String, Object>> audit(String query, int expected, Object... values) {
		List<Map<String, Object>> events = eventually(Duration.ofSeconds(10), () -> {
			this.trail.flush().as(StepVerifier::create).verifyComplete();
			return data(page("/admin/v1/audit" + query, values));
		}, (seen) -> seen.size() >= expected);
		assertThat(events).hasSize(expected);
		return events;
	}

	private AuditEvent event(UUID partnerId, int count) {
		return new AuditEvent(UUID.randomUUID(), this.clock.instant().plusMillis(count), partnerId, UUID.randomUUID(),
				"member-1", AuditEvent.Action.READ, "metrics", count, "request-" + count);
	}

	private Map<String, Object> page(String uri, Object... values) {
		return Partners.admin(this.client.get().uri(uri, values))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(MAP)
			.returnResult()
			.getResponseBody();
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> data(Map<String, Object> page) {
		return (List<Map<String, Object>>) page.get("data");
	}

}
