package com.healthpartner.api.ratelimit;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

import com.healthpartner.api.redis.RedisStore;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.RateLimitHeaders;
import com.healthpartner.api.support.TestBeans;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plan limits on one instance, as a partner sees them: the limit of its plan per fixed
 * window over all its keys, a 429 that stores nothing, headers on every answer, and plan
 * changes that apply to the next request.
 */
class PartnerLimitsTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Autowired
	private ApplicationContext context;

	@Test
	void theSixtyFirstRequestOfADefaultPartnerIsLimitedAndStoresNothing() {
		Credentials partner = this.partners.onboard();
		String stored = "kept-" + UUID.randomUUID();
		assertThat(write(partner, stored).getStatus().value()).isEqualTo(201);
		for (int i = 2; i <= 60; i++) {
			RateLimitHeaders headers = me(partner, 200);
			assertThat(headers.remaining()).isEqualTo(60 - i);
		}
		String refused = "refused-" + UUID.randomUUID();
		EntityExchangeResult<byte[]> limited = write(partner, refused);
		assertThat(limited.getStatus().value()).isEqualTo(429);
		assertThat(limited.getResponseHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(new String(limited.getResponseBody())).contains("\"code\":\"rate_limited\"");
		RateLimitHeaders headers = RateLimitHeaders.of(limited.getResponseHeaders(), this.clock.instant());
		assertThat(headers.policy()).isEqualTo("default");
		assertThat(headers.remaining()).isZero();
		long retryAfter = Long.parseLong(limited.getResponseHeaders().getFirst(HttpHeaders.RETRY_AFTER));
		assertThat(retryAfter).isEqualTo(headers.secondsToReset()).isBetween(1L, 61L);
		TestBeans.writes(this.db, stored).as(StepVerifier::create).expectNext(1L).verifyComplete();
		TestBeans.writes(this.db, refused).as(StepVerifier::create).expectNext(0L).verifyComplete();
		me(partner, 429);
	}

	@Test
	void anEnterprisePartnerGetsThreeHundredAMinute() {
		Credentials partner = this.partners.onboard("enterprise");
		for (int i = 1; i <= 300; i++) {
			assertThat(status(partner.apiKey())).as("request " + i).isEqualTo(200);
		}
		RateLimitHeaders limited = me(partner, 429);
		assertThat(limited.policy()).isEqualTo("enterprise");
		assertThat(limited.limit()).isEqualTo(300);
		assertThat(limited.policyHeader()).isEqualTo("\"enterprise\";q=300;w=60");
	}

	@Test
	void allKeysOfAPartnerShareOneWindow() {
		Credentials partner = this.partners.onboard();
		Credentials second = this.partners.issueKey(partner.partnerId(), Map.of());
		for (int i = 0; i < 30; i++) {
			status(partner.apiKey());
			status(second.apiKey());
		}
		assertThat(status(second.apiKey())).isEqualTo(429);
		assertThat(status(partner.apiKey())).isEqualTo(429);
	}

	@Test
	void aNewWindowStartsWhenThePreviousHasEnded() {
		Credentials partner = this.partners.onboard();
		for (int i = 0; i < 60; i++) {
			status(partner.apiKey());
		}
		RateLimitHeaders limited = me(partner, 429);
		this.clock.advance(Duration.ofSeconds(limited.secondsToReset() + 1));
		RateLimitHeaders fresh = me(partner, 200);
		assertThat(fresh.remaining()).isEqualTo(59);
		assertThat(fresh.reset()).isGreaterThan(limited.reset());
		assertThat(fresh.secondsToReset()).isBetween(59L, 60L);
	}

	@Test
	void aPlanChangeAppliesToTheNextRequestWithTheUsedRequestsKept() {
		Credentials partner = this.partners.onboard();
		for (int i = 0; i < 10; i++) {
			status(partner.apiKey());
		}
		this.partners.patch(partner.partnerId(), Map.of("plan", "enterprise"));
		RateLimitHeaders upgraded = me(partner, 200);
		assertThat(upgraded.policy()).isEqualTo("enterprise");
		assertThat(upgraded.limit()).isEqualTo(300);
		assertThat(upgraded.remaining()).isEqualTo(300 - 11);
		for (int i = 0; i < 60; i++) {
			status(partner.apiKey());
		}
		this.partners.patch(partner.partnerId(), Map.of("plan", "default"));
		RateLimitHeaders downgraded = me(partner, 429);
		assertThat(downgraded.policy()).isEqualTo("default");
		assertThat(downgraded.remaining()).isZero();
		assertThat(downgraded.reset()).as("the same window").isEqualTo(upgraded.reset());
	}

	@Test
	void headersArePresentAndConsistentOnEveryKindOfAnswer() {
		Credentials partner = this.partners.onboard("default", "metrics:write");
		int expected = 60;
		// 200, 404 and 403 (scope): all counted against the partner
		assertThat(answer(() -> exchange(partner, "/api/v1/auth/me", 200)).remaining()).isEqualTo(--expected);
		assertThat(answer(() -> exchange(partner, "/api/v1/nowhere", 404)).remaining()).isEqualTo(--expected);
		assertThat(answer(() -> exchange(partner, "/api/v1/health/metrics?user_id=u1", 403)).remaining())
			.isEqualTo(--expected);
		// 405, 400, 413, 415 and 201
		assertThat(answer(() -> this.client.delete()
			.uri("/api/v1/auth/me")
			.header("x-api-key", partner.apiKey())
			.exchange()
			.expectStatus()
			.isEqualTo(405)
			.returnResult(String.class)
			.getResponseHeaders()).remaining()).isEqualTo(--expected);
		for (var body : Map.of("{\"marker\":", 400, TestBeans.writeBody("x".repeat(70_000)), 413).entrySet()) {
			assertThat(
					answer(() -> post(partner, MediaType.APPLICATION_JSON, body.getKey(), body.getValue())).remaining())
				.isEqualTo(--expected);
		}
		assertThat(answer(() -> post(partner, MediaType.TEXT_PLAIN, "marker", 415)).remaining()).isEqualTo(--expected);
		assertThat(answer(
				() -> post(partner, MediaType.APPLICATION_JSON, TestBeans.writeBody(UUID.randomUUID().toString()), 201))
			.remaining()).isEqualTo(--expected);
	}

	@Test
	void refusalsBeforeThePartnerIsKnownShowTheAddressPolicy() {
		HttpHeaders missing = this.client.get()
			.uri("/api/v1/auth/me")
			.exchange()
			.expectStatus()
			.isUnauthorized()
			.returnResult(String.class)
			.getResponseHeaders();
		assertThat(RateLimitHeaders.of(missing, this.clock.instant()).policy()).isEqualTo("anonymous");
		assertThat(answer(() -> this.client.get()
			.uri("/api/v1/auth/me")
			.header("x-api-key", "hpk_" + "0".repeat(32))
			.exchange()
			.expectStatus()
			.isUnauthorized()
			.returnResult(String.class)
			.getResponseHeaders()).policy()).isEqualTo("anonymous");
		Credentials suspended = this.partners.onboard();
		this.partners.patch(suspended.partnerId(), Map.of("status", "suspended"));
		assertThat(answer(() -> exchange(suspended, "/api/v1/auth/me", 403)).policy()).isEqualTo("anonymous");
		// the suspension did not use up the partner's window
		this.partners.patch(suspended.partnerId(), Map.of("status", "active"));
		assertThat(me(suspended, 200).remaining()).isEqualTo(59);
	}

	@Test
	void administratorRoutesAndOtherPathsAreNotLimitedAndCarryNoHeaders() {
		Credentials partner = this.partners.onboard();
		for (int i = 0; i < 70; i++) {
			Partners.admin(this.client.get().uri("/admin/v1/partners/{id}", partner.partnerId()))
				.exchange()
				.expectStatus()
				.isOk();
		}
		HttpHeaders admin = Partners.admin(this.client.get().uri("/admin/v1/partners/{id}", partner.partnerId()))
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseHeaders();
		RateLimitHeaders.assertAbsent(admin);
		RateLimitHeaders.assertAbsent(this.client.get()
			.uri("/problems/rate_limited")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseHeaders());
		assertThat(me(partner, 200).remaining()).isEqualTo(59);
	}

	@Test
	void theLocalStoreNeedsNoRedis() {
		assertThat(this.context.getBeansOfType(RedisStore.class)).isEmpty();
		this.client.get()
			.uri("/actuator/health")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("UP")
			.jsonPath("$.components.rateLimitStore.status")
			.isEqualTo("UP")
			.jsonPath("$.components.redis")
			.doesNotExist();
	}

	private RateLimitHeaders me(Credentials partner, int status) {
		return answer(() -> exchange(partner, "/api/v1/auth/me", status));
	}

	/** The headers of one answer, checked against the time it was asked at. */
	private RateLimitHeaders answer(Supplier<HttpHeaders> request) {
		Instant now = this.clock.instant();
		return RateLimitHeaders.of(request.get(), now);
	}

	private HttpHeaders exchange(Credentials partner, String path, int status) {
		return this.client.get()
			.uri(path)
			.header("x-api-key", partner.apiKey())
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.returnResult(String.class)
			.getResponseHeaders();
	}

	private int status(String apiKey) {
		return Partners.meStatus(this.client, apiKey);
	}

	private EntityExchangeResult<byte[]> write(Credentials partner, String marker) {
		return this.client.post()
			.uri(TestBeans.WRITE_PATH)
			.header("x-api-key", partner.apiKey())
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(TestBeans.writeBody(marker))
			.exchange()
			.expectBody()
			.returnResult();
	}

	private HttpHeaders post(Credentials partner, MediaType type, String body, int status) {
		return this.client.post()
			.uri(TestBeans.WRITE_PATH)
			.header("x-api-key", partner.apiKey())
			.contentType(type)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.returnResult(String.class)
			.getResponseHeaders();
	}

}
