package com.healthpartner.api.ratelimit;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.KeyLookup;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.MutableClock;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.RateLimitHeaders;
import com.healthpartner.api.support.ServiceInstance;
import com.healthpartner.api.support.TestBeans;

import static com.healthpartner.api.support.Eventually.eventually;
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
				"app.registration-limit-per-hour", "3", "app.trusted-proxies", "127.0.0.1, ::1"), TestBeans.class,
				CountedKeyLookups.class);
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
		// the partner has used its key on this instance before (see below)
		get(partner.apiKey(), null).expectStatus().isOk();
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

	/**
	 * A 429 does no database work (docs/api.md, Rate limits). Once an address has used up
	 * its window, a made-up key (one the key cache does not know) from it is refused
	 * before it is looked up; a valid key in the key cache still works from there.
	 */
	@Test
	void anAddressThatUsedUpItsWindowCostsNoKeyLookUpUntilTheWindowEnds() {
		Credentials partner = this.partners.onboard("enterprise");
		String address = "203.0.113.60";
		cachedThere(partner.apiKey(), address);
		for (int i = 4; i >= 0; i--) {
			anonymous(madeUpKey(), address, 401, i);
		}
		anonymous(madeUpKey(), address, 429, 0);
		long lookups = lookups();
		for (int i = 0; i < 5; i++) {
			HttpHeaders limited = anonymous(madeUpKey(), address, 429, 0);
			assertThat(Long.parseLong(limited.getFirst(HttpHeaders.RETRY_AFTER))).isBetween(1L, 60L);
		}
		assertThat(lookups()).as("keys looked up after the window was used up").isEqualTo(lookups);
		get(partner.apiKey(), address).expectStatus().isOk().expectHeader().valueEquals("X-RateLimit-Limit", "300");
		assertThat(lookups()).isEqualTo(lookups);
		// the administrator's change evicts the key from the cache: a key that this
		// instance has seen valid is still looked up (and works), although its address
		// has used up its window
		this.partners.patch(partner.partnerId(), Map.of("plan", "loadtest"));
		String limit = eventually(Duration.ofSeconds(5),
				() -> get(partner.apiKey(), address).expectStatus()
					.isOk()
					.returnResult(String.class)
					.getResponseHeaders()
					.getFirst("X-RateLimit-Limit"),
				"1000000"::equals);
		assertThat(limit).as("the new plan, read from the database").isEqualTo("1000000");
		anonymous(madeUpKey(), address, 429, 0);
		anonymous(madeUpKey(), "203.0.113.61", 401, 4);
		long afterwards = lookups();
		assertThat(afterwards).as("the changed partner's key and another address's key are looked up")
			.isEqualTo(lookups + 2);
		clock().advance(Duration.ofSeconds(61));
		anonymous(madeUpKey(), address, 401, 4);
		assertThat(lookups()).as("after the window the key is looked up again").isEqualTo(afterwards + 1);
	}

	/** Sends the key until a request with it costs no look-up: it is in the key cache. */
	private void cachedThere(String apiKey, String forwardedFor) {
		boolean cached = eventually(Duration.ofSeconds(10), () -> {
			long before = lookups();
			get(apiKey, forwardedFor).expectStatus().isOk();
			return lookups() == before;
		});
		assertThat(cached).as("the key is served from the key cache").isTrue();
	}

	private static String madeUpKey() {
		return "hpk_" + UUID.randomUUID().toString().replace("-", "");
	}

	private static long lookups() {
		return instance.context().getBean(CountedKeyLookups.Counter.class).findByHashCalls();
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

	/**
	 * Counts the key look-ups in the database of the instance (registered as a source, so
	 * never found by component scanning).
	 */
	static class CountedKeyLookups {

		@Bean
		@Primary
		Counter countedKeyLookup(@Qualifier("partnerKeys") KeyLookup repository) {
			return new Counter(repository);
		}

		static final class Counter implements KeyLookup {

			private final KeyLookup repository;

			private final AtomicLong findByHashCalls = new AtomicLong();

			Counter(KeyLookup repository) {
				this.repository = repository;
			}

			@Override
			public Mono<ApiPrincipal> findByHash(byte[] keyHash) {
				this.findByHashCalls.incrementAndGet();
				return this.repository.findByHash(keyHash);
			}

			@Override
			public Mono<Void> recordUse(Map<UUID, Instant> lastUsed) {
				return this.repository.recordUse(lastUsed);
			}

			@Override
			public String decryptSecret(byte[] secretCiphertext) {
				return this.repository.decryptSecret(secretCiphertext);
			}

			long findByHashCalls() {
				return this.findByHashCalls.get();
			}

		}

	}

}
