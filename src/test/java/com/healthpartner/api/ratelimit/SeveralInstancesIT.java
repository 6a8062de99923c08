package com.healthpartner.api.ratelimit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.TestMethodOrder;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.redis.RedisStore;
import com.healthpartner.api.support.InstancesOnRedis;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.RateLimitHeaders;
import com.healthpartner.api.support.ServiceInstance;
import com.healthpartner.api.support.Signatures;
import com.healthpartner.api.support.TestBeans;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances behind an imagined load balancer, on different ports, sharing the test
 * PostgreSQL and one real Redis ({@code APP_RATE_LIMIT_STORE=redis}): a partner's limit
 * and its signed writes hold across both together; with Redis stopped both keep
 * answering, with per-instance limits, and say so in health and metrics.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeveralInstancesIT extends IntegrationTest {

	@RegisterExtension
	static final InstancesOnRedis instances = InstancesOnRedis.with(Map.of(), TestBeans.class);

	@Autowired
	private DatabaseClient db;

	@Test
	@Order(1)
	void aDefaultPartnerAlternatingBetweenInstancesGetsSixtyNotOneHundredTwenty() {
		Credentials partner = this.partners.onboard();
		int accepted = 0;
		for (int i = 0; i < 120; i++) {
			ServiceInstance instance = (i % 2 == 0) ? instances.first() : instances.second();
			Instant now = instance.clock().instant();
			HttpHeaders headers = me(instance, partner.apiKey()).returnResult(String.class).getResponseHeaders();
			RateLimitHeaders limits = RateLimitHeaders.of(headers, now);
			if (headers.getFirst(HttpHeaders.RETRY_AFTER) == null) {
				accepted++;
				assertThat(limits.remaining()).as("one window for both instances").isEqualTo(60 - accepted);
			}
			else {
				assertThat(limits.remaining()).isZero();
			}
		}
		assertThat(accepted).isEqualTo(60);
		me(instances.first(), partner.apiKey()).expectStatus().isEqualTo(429);
		me(instances.second(), partner.apiKey()).expectStatus().isEqualTo(429);
	}

	/**
	 * Instances' clocks are never quite equal: a request on an instance whose clock is a
	 * few seconds behind, just after the other one started the partner's window, counts
	 * in that window instead of starting a new one (which would forget what was used).
	 */
	@Test
	@Order(2)
	void anInstanceWhoseClockIsBehindCountsInTheWindowTheOtherOneStarted() {
		Credentials partner = this.partners.onboard();
		Duration lag = Duration.ofSeconds(5);
		instances.second().clock().advance(lag.negated());
		try {
			assertThat(remaining(me(instances.first(), partner.apiKey()))).isEqualTo(59);
			assertThat(remaining(me(instances.second(), partner.apiKey()))).as("one window for both instances")
				.isEqualTo(58);
			assertThat(remaining(me(instances.first(), partner.apiKey()))).isEqualTo(57);
			assertThat(remaining(me(instances.second(), partner.apiKey()))).isEqualTo(56);
		}
		finally {
			instances.second().clock().advance(lag);
		}
	}

	@Test
	@Order(3)
	void aSignedWriteReplayedAgainstTheOtherInstanceIsRefused() {
		Credentials partner = this.partners.onboard();
		String marker = UUID.randomUUID().toString();
		String body = TestBeans.writeBody(marker);
		String signature = Signatures.sign(partner.apiSecret(), instances.first().clock().instant().getEpochSecond(),
				"POST", TestBeans.WRITE_PATH, body);
		write(instances.first(), partner, body, signature).expectStatus().isCreated();
		write(instances.second(), partner, body, signature).expectStatus()
			.isUnauthorized()
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("invalid_signature");
		TestBeans.writes(this.db, marker).as(StepVerifier::create).expectNext(1L).verifyComplete();
	}

	@Test
	@Order(4)
	void withRedisStoppedBothInstancesKeepAnsweringWithTheirOwnLimitsAndReportIt() {
		Credentials partner = this.partners.onboard();
		for (ServiceInstance instance : List.of(instances.first(), instances.second())) {
			health(instance, "rateLimitStore").jsonPath("$.status").isEqualTo("UP");
			assertThat(metric(instance, "ratelimit_store_degraded")).isEqualTo(0.0);
		}
		instances.redis().stop();
		for (ServiceInstance instance : List.of(instances.first(), instances.second())) {
			for (int i = 1; i <= 60; i++) {
				RateLimitHeaders limits = RateLimitHeaders.of(me(instance, partner.apiKey()).expectStatus()
					.isOk()
					.returnResult(String.class)
					.getResponseHeaders(), instance.clock().instant());
				assertThat(limits.remaining()).as("each instance counts alone").isEqualTo(60 - i);
			}
			me(instance, partner.apiKey()).expectStatus().isEqualTo(429);
			health(instance, "rateLimitStore").jsonPath("$.status").isEqualTo("DEGRADED");
			health(instance, "").jsonPath("$.status").isEqualTo("DEGRADED");
			health(instance, "liveness").jsonPath("$.status").isEqualTo("UP");
			health(instance, "readiness").jsonPath("$.status")
				.isEqualTo("DEGRADED")
				.jsonPath("$.components.rateLimitStore.status")
				.isEqualTo("DEGRADED")
				.jsonPath("$.components.r2dbc.status")
				.isEqualTo("UP");
			assertThat(metric(instance, "ratelimit_store_degraded")).isEqualTo(1.0);
			assertThat(metric(instance, "ratelimit_store_fallbacks_total")).isGreaterThanOrEqualTo(61.0);
		}
		instances.redis().start();
		// Lettuce reconnects in the background; once an instance's pause after the
		// failure has passed (on its clock) its next request uses Redis again
		Credentials later = this.partners.onboard();
		assertThat(eventually(Duration.ofSeconds(15), () -> {
			for (ServiceInstance instance : List.of(instances.first(), instances.second())) {
				instance.clock().advance(RedisStore.RETRY_AFTER_FAILURE);
				me(instance, later.apiKey()).expectStatus().isOk();
			}
			return isUp(instances.first()) && isUp(instances.second());
		})).isTrue();
		for (ServiceInstance instance : List.of(instances.first(), instances.second())) {
			assertThat(metric(instance, "ratelimit_store_degraded")).isEqualTo(0.0);
		}
	}

	private static WebTestClient.ResponseSpec me(ServiceInstance instance, String apiKey) {
		return instance.client().get().uri("/api/v1/auth/me").header("x-api-key", apiKey).exchange();
	}

	/**
	 * {@code X-RateLimit-Remaining} as sent (the lagging instance's {@code t} is a few
	 * seconds longer than the window, which the consistency checks of
	 * {@link RateLimitHeaders} do not expect).
	 */
	private static int remaining(WebTestClient.ResponseSpec answer) {
		return Integer.parseInt(answer.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseHeaders()
			.getFirst("X-RateLimit-Remaining"));
	}

	private static WebTestClient.ResponseSpec write(ServiceInstance instance, Credentials partner, String body,
			String signature) {
		return instance.client()
			.post()
			.uri(TestBeans.WRITE_PATH)
			.header("x-api-key", partner.apiKey())
			.header(Signatures.HEADER, signature)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange();
	}

	private static WebTestClient.BodyContentSpec health(ServiceInstance instance, String component) {
		return instance.client()
			.get()
			.uri(component.isEmpty() ? "/actuator/health" : "/actuator/health/" + component)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody();
	}

	private static boolean isUp(ServiceInstance instance) {
		return Partners.health(instance.client(), "rateLimitStore").contains("\"UP\"");
	}

	private static double metric(ServiceInstance instance, String name) {
		String scrape = instance.client()
			.get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		for (String line : scrape.split("\n")) {
			if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
				return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		throw new AssertionError(name + " is not in /actuator/prometheus");
	}

}
