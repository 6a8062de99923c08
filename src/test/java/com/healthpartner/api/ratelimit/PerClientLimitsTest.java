package com.healthpartner.api.ratelimit;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.MutableClock;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.RateLimitHeaders;
import com.healthpartner.api.support.ServiceInstance;
import com.healthpartner.api.support.TestBeans;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-IP policies, on an instance of their own with low limits (5 requests without a
 * valid key per minute, 3 registrations per hour) that trusts the local proxy's
 * {@code X-Forwarded-For}. Partners are onboarded through the shared instance, whose
 * per-IP limits are out of reach.
 */
class PerClientLimitsTest extends IntegrationTest {

	private static ServiceInstance instance;

	@Autowired
	private DatabaseClient db;

	@BeforeAll
	static void startInstanceWithLowLimits() {
		instance = ServiceInstance.start(Map.of("app.anonymous-limit-per-minute", "5",
				"app.registration-limit-per-hour", "3", "app.trusted-proxies", "127.0.0.1, ::1"), TestBeans.class);
	}

	@AfterAll
	static void stopInstance() {
		instance.close();
	}

	/** Every test starts after all windows of earlier tests have ended. */
	@BeforeEach
	void startFreshWindows() {
		clock().advance(Duration.ofHours(2));
	}

	@Test
	void registrationsAreLimitedPerAddressPerHour() {
		for (int i = 1; i <= 3; i++) {
			HttpHeaders headers = register(UUID.randomUUID() + "@gym.example", 202);
			RateLimitHeaders limits = RateLimitHeaders.of(headers, clock().instant());
			assertThat(limits.policyHeader()).isEqualTo("\"anonymous\";q=5;w=60, \"registration\";q=3;w=3600");
			assertThat(limits.rateLimitHeader()).startsWith("\"anonymous\";r=" + (5 - i) + ";t=")
				.contains("\"registration\";r=" + (3 - i) + ";t=");
			assertThat(limits.policy()).as("the tighter policy").isEqualTo("registration");
		}
		String refused = UUID.randomUUID() + "@gym.example";
		HttpHeaders limited = register(refused, 429);
		RateLimitHeaders limits = RateLimitHeaders.of(limited, clock().instant());
		assertThat(limits.policy()).isEqualTo("registration");
		assertThat(Long.parseLong(limited.getFirst(HttpHeaders.RETRY_AFTER))).isBetween(3500L, 3600L);
		this.db.sql("select count(*) from registrations where email = :email")
			.bind("email", refused)
			.map((row) -> row.get(0, Long.class))
			.one()
			.as(StepVerifier::create)
			.expectNext(0L)
			.verifyComplete();
		clock().advance(Duration.ofSeconds(61));
		register(UUID.randomUUID() + "@gym.example", 429);
		clock().advance(Duration.ofHours(1));
		register(UUID.randomUUID() + "@gym.example", 202);
	}

	@Test
	void requestsWithoutAValidKeyAreLimitedPerAddressPerMinute() {
		Credentials partner = this.partners.onboard();
		Credentials suspended = this.partners.onboard();
		this.partners.patch(suspended.partnerId(), Map.of("status", "suspended"));
		anonymous(null, null, 401, 4);
		anonymous("hpk_" + "1".repeat(32), null, 401, 3);
		anonymous(suspended.apiKey(), null, 403, 2);
		anonymous(null, null, 401, 1);
		anonymous("not-a-key", null, 401, 0);
		HttpHeaders limited = anonymous(null, null, 429, 0);
		assertThat(Long.parseLong(limited.getFirst(HttpHeaders.RETRY_AFTER))).isBetween(1L, 60L);
		// a partner's own key is limited by its plan, not by the address
		get(partner.apiKey(), null).expectStatus().isOk().expectHeader().valueEquals("X-RateLimit-Limit", "60");
		clock().advance(Duration.ofSeconds(61));
		anonymous(null, null, 401, 4);
	}

	@Test
	void behindTheTrustedProxyTheForwardedClientIsLimitedAndCannotPoseAsAnother() {
		for (int i = 4; i >= 0; i--) {
			anonymous(null, "203.0.113.7", 401, i);
		}
		anonymous(null, "203.0.113.7", 429, 0);
		// an address the client wrote itself, left of the one the proxy appended, is
		// ignored
		anonymous(null, "198.51.100.1, 203.0.113.7", 429, 0);
		anonymous(null, "203.0.113.8", 401, 4);
		anonymous(null, null, 401, 4);
	}

	private HttpHeaders anonymous(String apiKey, String forwardedFor, int status, int remaining) {
		HttpHeaders headers = get(apiKey, forwardedFor).expectStatus()
			.isEqualTo(status)
			.returnResult(String.class)
			.getResponseHeaders();
		RateLimitHeaders limits = RateLimitHeaders.of(headers, clock().instant());
		assertThat(limits.policy()).isEqualTo("anonymous");
		assertThat(limits.remaining()).isEqualTo(remaining);
		return headers;
	}

	private WebTestClient.ResponseSpec get(String apiKey, String forwardedFor) {
		WebTestClient.RequestHeadersSpec<?> request = instance.client().get().uri("/api/v1/auth/me");
		Consumer<HttpHeaders> headers = (h) -> {
			if (apiKey != null) {
				h.set("x-api-key", apiKey);
			}
			if (forwardedFor != null) {
				h.set("X-Forwarded-For", forwardedFor);
			}
		};
		return request.headers(headers).exchange();
	}

	private HttpHeaders register(String email, int status) {
		return instance.client()
			.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("email", email, "partner_name", "Gym"))
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.returnResult(String.class)
			.getResponseHeaders();
	}

	private static MutableClock clock() {
		return instance.clock();
	}

}
