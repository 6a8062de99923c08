package com.healthpartner.api.access;

import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import com.healthpartner.api.crypto.Digests;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks 1 and 2 of the contract on their own, with keys held in memory instead of the
 * database: which answer each kind of key gets, and that the gate is asked before a key
 * is looked up.
 */
class ApiKeyFilterTest {

	private static final String KEY = "hpk_" + "A".repeat(32);

	private static final String SUSPENDED_KEY = "hpk_" + "S".repeat(32);

	private static final String EXPIRED_KEY = "hpk_" + "E".repeat(32);

	private final Clock clock = Clock.systemUTC();

	private final InMemoryKeys keys = new InMemoryKeys();

	private final AtomicInteger gateAsked = new AtomicInteger();

	private final AtomicReference<Mono<Void>> gateAnswer = new AtomicReference<>(Mono.empty());

	private ApiKeyFilter filter;

	private ServerWebExchangeHolder reached;

	@BeforeEach
	void setUp() {
		this.keys.add(KEY, principal(PartnerStatus.ACTIVE, null));
		this.keys.add(SUSPENDED_KEY, principal(PartnerStatus.SUSPENDED, null));
		this.keys.add(EXPIRED_KEY, principal(PartnerStatus.ACTIVE, this.clock.instant().minusSeconds(1)));
		KeyCache cache = new KeyCache(this.keys);
		cache.listening(true);
		this.filter = new ApiKeyFilter(cache, new KeyUsage(this.keys, this.clock), (exchange) -> {
			this.gateAsked.incrementAndGet();
			return this.gateAnswer.get();
		}, this.clock);
		this.reached = new ServerWebExchangeHolder();
	}

	@Test
	void aValidKeyOfAnActivePartnerReachesTheRouteWithItsPrincipal() {
		MockServerWebExchange exchange = exchange("/api/v1/auth/me", KEY);
		run(exchange).verifyComplete();
		assertThat(this.reached.principal()).isNotNull();
		assertThat(this.reached.principal().partnerName()).isEqualTo("Gym " + PartnerStatus.ACTIVE);
	}

	@Test
	void noKeyIsMissingApiKey() {
		run(exchange("/api/v1/health/metrics", null)).verifyErrorSatisfies(refusedAs(ProblemType.MISSING_API_KEY));
		assertThat(this.reached.principal()).isNull();
	}

	@Test
	void aMalformedUnknownOrExpiredKeyGetsTheSameInvalidApiKey() {
		run(exchange("/api/v1/auth/me", "not-a-key")).verifyErrorSatisfies(refusedAs(ProblemType.INVALID_API_KEY));
		run(exchange("/api/v1/auth/me", "hpk_" + "U".repeat(32)))
			.verifyErrorSatisfies(refusedAs(ProblemType.INVALID_API_KEY));
		run(exchange("/api/v1/auth/me", EXPIRED_KEY)).verifyErrorSatisfies(refusedAs(ProblemType.INVALID_API_KEY));
		assertThat(this.reached.principal()).isNull();
	}

	@Test
	void aSuspendedPartnerIsRefusedAfterItsKeyIsKnown() {
		run(exchange("/api/v1/auth/me", SUSPENDED_KEY)).verifyErrorSatisfies(refusedAs(ProblemType.PARTNER_SUSPENDED));
		assertThat(this.reached.principal()).isNull();
	}

	@Test
	void theGateIsAskedBeforeALookUpAndItsRefusalIsTheAnswer() {
		this.gateAnswer.set(Mono.error(new ApiException(ProblemType.RATE_LIMITED, "used up")));
		run(exchange("/api/v1/auth/me", "hpk_" + "Z".repeat(32)))
			.verifyErrorSatisfies(refusedAs(ProblemType.RATE_LIMITED));
		assertThat(this.gateAsked).hasValue(1);
		assertThat(this.keys.lookups).hasValue(0);
	}

	@Test
	void aCachedKeyIsNeitherLookedUpAgainNorGated() {
		run(exchange("/api/v1/auth/me", KEY)).verifyComplete();
		this.gateAnswer.set(Mono.error(new ApiException(ProblemType.RATE_LIMITED, "used up")));
		run(exchange("/api/v1/auth/me", KEY)).verifyComplete();
		assertThat(this.keys.lookups).hasValue(1);
	}

	@Test
	void registrationAndPathsOutsideTheApiNeedNoKey() {
		run(MockServerWebExchange.from(MockServerHttpRequest.post("/api/v1/auth"))).verifyComplete();
		run(exchange("/actuator/health", null)).verifyComplete();
		assertThat(this.keys.lookups).hasValue(0);
	}

	private StepVerifier.FirstStep<Void> run(MockServerWebExchange exchange) {
		return this.filter.filter(exchange, (e) -> {
			this.reached.set(e.getAttribute(ApiPrincipal.ATTRIBUTE));
			return Mono.empty();
		}).as(StepVerifier::create);
	}

	private static MockServerWebExchange exchange(String path, String key) {
		MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get(path);
		if (key != null) {
			request.header(ApiKeyFilter.HEADER, key);
		}
		return MockServerWebExchange.from(request);
	}

	private static Consumer<Throwable> refusedAs(ProblemType type) {
		return (failure) -> assertThat(((ApiException) failure).type()).isEqualTo(type);
	}

	private static ApiPrincipal principal(PartnerStatus status, Instant expiresAt) {
		return new ApiPrincipal(UUID.randomUUID(), "Gym " + status, "default", status, UUID.randomUUID(), Scope.all(),
				false, expiresAt, new byte[0]);
	}

	/** What reached the route. */
	private static final class ServerWebExchangeHolder {

		private ApiPrincipal principal;

		void set(ApiPrincipal principal) {
			this.principal = principal;
		}

		ApiPrincipal principal() {
			return this.principal;
		}

	}

	/** Keys by their hash, as the partner feature stores them. */
	private static final class InMemoryKeys implements KeyLookup {

		private final Map<String, ApiPrincipal> byHash = new HashMap<>();

		private final AtomicInteger lookups = new AtomicInteger();

		void add(String key, ApiPrincipal principal) {
			this.byHash.put(Arrays.toString(Digests.sha256(key)), principal);
		}

		@Override
		public Mono<ApiPrincipal> findByHash(byte[] keyHash) {
			this.lookups.incrementAndGet();
			return Mono.justOrEmpty(this.byHash.get(Arrays.toString(keyHash)));
		}

		@Override
		public Mono<Void> recordUse(Map<UUID, Instant> lastUsed) {
			return Mono.empty();
		}

		@Override
		public String decryptSecret(byte[] secretCiphertext) {
			throw new UnsupportedOperationException();
		}

	}

}
