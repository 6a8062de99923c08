package com.healthpartner.api.records;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.reactive.function.client.WebClient;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many partners' POSTs at once, as a load test sends them (the service writes those that
 * wait together, {@link WriteBatches}): each is answered with its own record, stored as
 * answered, with one change and one audit event under its request id, and no partner sees
 * another's.
 */
class ConcurrentWritesTest extends IntegrationTest {

	private static final int WRITES = 60;

	@Autowired
	private DatabaseClient db;

	@Test
	void concurrentPostsOfSeveralPartnersAreEachAnsweredStoredAndAuditedAsTheirOwn() {
		List<Credentials> partners = List.of(this.partners.onboard("loadtest"), this.partners.onboard("loadtest"),
				this.partners.onboard("loadtest"));
		String user = "member-" + UUID.randomUUID();
		WebClient client = WebClient.create("http://localhost:" + this.port);
		List<ResponseEntity<String>> answers = Flux.range(0, WRITES).flatMap((i) -> {
			Credentials partner = partners.get(i % partners.size());
			boolean assessment = i % 4 == 3;
			String body = assessment ? "{\"user_id\": \"" + user + "\", \"responses\": {\"n\": " + i + "}}"
					: "{\"user_id\": \""
							+ user + "\", \"metrics\": {\"weight\": " + (60 + i) + "}" + ((i % 2 == 0)
									? ", \"client_record_id\": \"rec-" + i + "\", \"client_record_version\": 1" : "")
							+ "}";
			return client.post()
				.uri(assessment ? HealthApi.ASSESSMENTS : HealthApi.METRICS)
				.header("x-api-key", partner.apiKey())
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(body)
				.retrieve()
				.toEntity(String.class);
		}, WRITES).collectList().block(Duration.ofSeconds(30));

		assertThat(answers).hasSize(WRITES).allSatisfy((answer) -> {
			assertThat(answer.getStatusCode().value()).isEqualTo(201);
			assertThat(answer.getHeaders().getFirst("Record-Outcome")).isEqualTo("created");
		});
		for (ResponseEntity<String> answer : answers) {
			String location = answer.getHeaders().getLocation().toString();
			String requestId = answer.getHeaders().getFirst("X-Request-Id");
			String id = location.substring(location.lastIndexOf('/') + 1);
			// the partner that wrote it reads it back as answered; another gets 404
			Credentials owner = partners.stream()
				.filter((partner) -> isAudited(partner, requestId, id))
				.findFirst()
				.orElseThrow(() -> new AssertionError("no audit event of request " + requestId));
			assertThat(new HealthApi(this.client).get(owner.apiKey(), location)
				.expectStatus()
				.isOk()
				.expectBody(String.class)
				.returnResult()
				.getResponseBody()).isEqualTo(answer.getBody());
			Credentials other = partners.get((partners.indexOf(owner) + 1) % partners.size());
			new HealthApi(this.client).get(other.apiKey(), location).expectStatus().isNotFound();
		}
		for (Credentials partner : partners) {
			Map<String, Object> stored = this.db
				.sql("""
						select (select count(*) from changes where partner_id = :partner and kind = 'created') as changes,
						       (select count(*) from audit_events where partner_id = :partner and action = 'write') as events
						""")
				.bind("partner", UUID.fromString(partner.partnerId()))
				.fetch()
				.one()
				.block();
			assertThat(stored).containsEntry("changes", (long) WRITES / partners.size())
				.containsEntry("events", (long) WRITES / partners.size());
		}
	}

	private boolean isAudited(Credentials partner, String requestId, String recordId) {
		return Boolean.TRUE.equals(this.db.sql("""
				select exists (select 1 from audit_events a join changes c on c.partner_id = a.partner_id
				               where a.partner_id = :partner and a.request_id = :requestId and a.action = 'write'
				                 and c.record_id = :recordId) as audited
				""")
			.bind("partner", UUID.fromString(partner.partnerId()))
			.bind("requestId", requestId)
			.bind("recordId", UUID.fromString(recordId))
			.map((row) -> row.get("audited", Boolean.class))
			.one()
			.block());
	}

}
