package com.healthpartner.api.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.web.reactive.function.client.WebClient;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Idempotency-Key} on both POSTs: a replay gets the first answer and writes
 * nothing, a different body is 422, a request while the first is in flight 409, refusals
 * are not kept, keys belong to a partner and an endpoint and expire after 24 hours.
 */
class IdempotencyTest extends PartnerTest {

	/** A claim's lease with the service's default request deadline (2.5 s). */
	private static final Duration LEASE = Duration.ofMillis(2500).plus(IdempotentCreates.CLAIM_MARGIN);

	@Autowired
	private IdempotencySweeper sweeper;

	@Test
	void theSameBodyAgainIsAnsweredWithTheFirstAnswerAndWritesNothing() {
		String key = UUID.randomUUID().toString();
		EntityExchangeResult<byte[]> first = post(HealthApi.METRICS, key, """
				{"user_id": "%s", "metrics": {"weight": 72.5, "steps": 100}, "recorded_at": "2026-01-01T10:00:00Z"}
				""".formatted(this.user));
		assertThat(first.getStatus().value()).isEqualTo(201);
		assertThat(first.getResponseHeaders().containsHeader(IdempotentCreates.REPLAYED)).isFalse();
		// the same JSON: other key order, white space and spelling of the numbers
		EntityExchangeResult<byte[]> again = post(HealthApi.METRICS, key,
				"{ \"recorded_at\":\"2026-01-01T10:00:00Z\",\"metrics\":{\"steps\":1.00e2,\"weight\":72.50},\n\"user_id\":\""
						+ this.user + "\" }");
		assertThat(again.getStatus().value()).isEqualTo(201);
		assertThat(again.getResponseHeaders().getFirst(IdempotentCreates.REPLAYED)).isEqualTo("true");
		assertThat(again.getResponseHeaders().getFirst(HttpHeaders.LOCATION))
			.isEqualTo(first.getResponseHeaders().getFirst(HttpHeaders.LOCATION));
		assertThat(again.getResponseHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
		assertThat(again.getResponseBodyContent()).isEqualTo(first.getResponseBodyContent());
		assertThat(metrics()).hasSize(1);
	}

	@Test
	void aDifferentBodyWithTheSameKeyIsRefusedAndWritesNothing() {
		String key = "order-" + UUID.randomUUID();
		assertThat(post(HealthApi.ASSESSMENTS, key, assessment("{\"a\": 1}")).getStatus().value()).isEqualTo(201);
		this.api
			.post(HealthApi.ASSESSMENTS, this.partner.apiKey(), assessment("{\"a\": 2}"), IdempotentCreates.HEADER, key)
			.expectStatus()
			.isEqualTo(422)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("idempotency_key_reused");
		assertThat(assessments()).hasSize(1);
		assertThat(post(HealthApi.ASSESSMENTS, key, assessment("{\"a\": 1}")).getResponseHeaders()
			.getFirst(IdempotentCreates.REPLAYED)).isEqualTo("true");
	}

	@Test
	void aKeyBelongsToOnePartnerAndOneEndpoint() {
		String key = "shared-key";
		post(HealthApi.ASSESSMENTS, key, assessment("{\"a\": 1}"));
		EntityExchangeResult<byte[]> metric = post(HealthApi.METRICS, key,
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}");
		assertThat(metric.getStatus().value()).isEqualTo(201);
		assertThat(metric.getResponseHeaders().containsHeader(IdempotentCreates.REPLAYED)).isFalse();
		Credentials other = this.partners.onboard();
		this.api.post(HealthApi.ASSESSMENTS, other.apiKey(), assessment("{\"a\": 1}"), IdempotentCreates.HEADER, key)
			.expectStatus()
			.isCreated()
			.expectHeader()
			.doesNotExist(IdempotentCreates.REPLAYED);
		assertThat(assessments()).hasSize(1);
		assertThat(metrics()).hasSize(1);
	}

	@Test
	void aRefusedRequestIsNotKeptSoTheKeyMayBeRetried() {
		String key = UUID.randomUUID().toString();
		this.api.post(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": -5}}", IdempotentCreates.HEADER, key)
			.expectStatus()
			.isBadRequest();
		EntityExchangeResult<byte[]> fixed = post(HealthApi.METRICS, key,
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 75}}");
		assertThat(fixed.getStatus().value()).isEqualTo(201);
		assertThat(fixed.getResponseHeaders().containsHeader(IdempotentCreates.REPLAYED)).isFalse();
	}

	@Test
	void aBadKeyIsAValidationError() {
		for (String key : List.of("k".repeat(256), "tab\tinside", "")) {
			this.api
				.post(HealthApi.METRICS, this.partner.apiKey(),
						"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}", IdempotentCreates.HEADER,
						key)
				.expectStatus()
				.isBadRequest()
				.expectBody()
				.jsonPath("$.errors[0].field")
				.isEqualTo("Idempotency-Key");
		}
		assertThat(post(HealthApi.METRICS, "~!@#$%^&*()_+ {}|:<>? " + "k".repeat(233),
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}")
			.getStatus()
			.value()).isEqualTo(201);
		assertThat(metrics()).hasSize(1);
	}

	@Test
	void twoConcurrentIdenticalRequestsStoreExactlyOneRecord() {
		String key = UUID.randomUUID().toString();
		String body = "{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}";
		WebClient web = WebClient.create("http://localhost:" + this.port);
		List<Answer> answers = Flux.range(0, 8)
			.flatMap((i) -> web.post()
				.uri(HealthApi.METRICS)
				.header("x-api-key", this.partner.apiKey())
				.header(IdempotentCreates.HEADER, key)
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(body)
				.exchangeToMono((response) -> response.bodyToMono(String.class)
					.map((text) -> new Answer(response.statusCode().value(),
							response.headers().asHttpHeaders().getFirst(IdempotentCreates.REPLAYED), text))))
			.collectList()
			.block(Duration.ofSeconds(30));
		assertThat(answers).hasSize(8).allSatisfy((answer) -> assertThat(answer.status()).isIn(201, 409));
		List<Answer> originals = answers.stream().filter((a) -> a.status() == 201 && a.replayed() == null).toList();
		assertThat(originals).hasSize(1);
		answers.stream()
			.filter((a) -> a.status() == 201)
			.forEach((a) -> assertThat(a.body()).isEqualTo(originals.get(0).body()));
		answers.stream()
			.filter((a) -> a.status() == 409)
			.forEach((a) -> assertThat(a.body()).contains("idempotency_in_progress"));
		assertThat(metrics()).hasSize(1);
	}

	@Test
	void aRequestWhileTheFirstIsInFlightIsAConflictAndAnAbandonedClaimRunsOut() {
		String key = UUID.randomUUID().toString();
		String body = assessment("{\"a\": 1}");
		// what an instance that crashed mid-request leaves behind: a claim without answer
		Instant now = this.clock.instant();
		this.db.sql("""
				insert into idempotency_keys (partner_id, endpoint, idempotency_key, request_hash, claim_token,
				    claimed_until, created_at, expires_at)
				values (:partnerId, :endpoint, :key, :hash, :token, :until, :now, :expires)
				""")
			.bind("partnerId", UUID.fromString(this.partner.partnerId()))
			.bind("endpoint", HealthApi.ASSESSMENTS)
			.bind("key", key)
			.bind("hash", CanonicalJson.sha256(tools.jackson.databind.json.JsonMapper.builder().build().readTree(body)))
			.bind("token", UUID.randomUUID())
			.bind("until", now.plus(LEASE))
			.bind("now", now)
			.bind("expires", now.plus(IdempotentCreates.RETENTION))
			.then()
			.block(Duration.ofSeconds(10));
		this.api.post(HealthApi.ASSESSMENTS, this.partner.apiKey(), body, IdempotentCreates.HEADER, key)
			.expectStatus()
			.isEqualTo(409)
			.expectHeader()
			.exists(HttpHeaders.RETRY_AFTER)
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("idempotency_in_progress");
		this.api
			.post(HealthApi.ASSESSMENTS, this.partner.apiKey(), assessment("{\"a\": 2}"), IdempotentCreates.HEADER, key)
			.expectStatus()
			.isEqualTo(422);
		assertThat(assessments()).isEmpty();

		this.clock.advance(LEASE.plusSeconds(1));
		assertThat(post(HealthApi.ASSESSMENTS, key, body).getStatus().value()).isEqualTo(201);
		assertThat(assessments()).hasSize(1);
	}

	@Test
	void keysExpireAfterTwentyFourHoursAndAreThenSweptAway() {
		String key = UUID.randomUUID().toString();
		post(HealthApi.ASSESSMENTS, key, assessment("{\"a\": 1}"));
		this.clock.advance(Duration.ofHours(23).plusMinutes(59));
		assertThat(post(HealthApi.ASSESSMENTS, key, assessment("{\"a\": 1}")).getResponseHeaders()
			.getFirst(IdempotentCreates.REPLAYED)).isEqualTo("true");
		this.api
			.post(HealthApi.ASSESSMENTS, this.partner.apiKey(), assessment("{\"a\": 2}"), IdempotentCreates.HEADER, key)
			.expectStatus()
			.isEqualTo(422);

		this.clock.advance(Duration.ofMinutes(2));
		EntityExchangeResult<byte[]> afterExpiry = post(HealthApi.ASSESSMENTS, key, assessment("{\"a\": 2}"));
		assertThat(afterExpiry.getStatus().value()).isEqualTo(201);
		assertThat(afterExpiry.getResponseHeaders().containsHeader(IdempotentCreates.REPLAYED)).isFalse();
		assertThat(assessments()).hasSize(2);

		assertThat(storedKeys()).isEqualTo(1);
		this.clock.advance(IdempotentCreates.RETENTION);
		this.sweeper.sweep().block(Duration.ofSeconds(10));
		assertThat(storedKeys()).isZero();
	}

	private EntityExchangeResult<byte[]> post(String path, String key, String json) {
		return this.api.post(path, this.partner.apiKey(), json, IdempotentCreates.HEADER, key)
			.expectBody()
			.returnResult();
	}

	private String assessment(String responses) {
		return "{\"user_id\": \"" + this.user + "\", \"responses\": " + responses + "}";
	}

	private List<Map<String, Object>> metrics() {
		return this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user);
	}

	private List<Map<String, Object>> assessments() {
		return this.api.allPages(this.partner.apiKey(), HealthApi.ASSESSMENTS + "?user_id={u}", this.user);
	}

	private long storedKeys() {
		return this.db.sql("select count(*) from idempotency_keys where partner_id = :p")
			.bind("p", UUID.fromString(this.partner.partnerId()))
			.mapValue(Long.class)
			.one()
			.block(Duration.ofSeconds(10));
	}

	private record Answer(int status, String replayed, String body) {
	}

}
