package com.healthpartner.api.access;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks 1 and 2 on their own, with keys held in memory instead of the database: which
 * answer each kind of key gets, what is decided at once, and that the gate is asked
 * before a key is looked up.
 */
class ApiKeysTest {

	private static final String KEY = "hpk_" + "A".repeat(32);

	private static final String SUSPENDED_KEY = "hpk_" + "S".repeat(32);

	private static final String EXPIRED_KEY = "hpk_" + "E".repeat(32);

	private final Clock clock = Clock.systemUTC();

	private final InMemoryKeys stored = new InMemoryKeys();

	private final AtomicInteger gateAsked = new AtomicInteger();

	private final AtomicReference<Mono<Void>> gateAnswer = new AtomicReference<>(Mono.empty());

	private final ApiKeys keys = this.stored.apiKeys((exchange) -> {
		this.gateAsked.incrementAndGet();
		return this.gateAnswer.get();
	}, this.clock);

	ApiKeysTest() {
		this.stored.add(KEY, "default", PartnerStatus.ACTIVE, null);
		this.stored.add(SUSPENDED_KEY, "default", PartnerStatus.SUSPENDED, null);
		this.stored.add(EXPIRED_KEY, "default", PartnerStatus.ACTIVE, this.clock.instant().minusSeconds(1));
	}

	@Test
	void noKeyOrAKeyOfTheWrongShapeIsRefusedAtOnce() {
		assertThat(this.keys.checkNow(exchange(null)).refusal().type()).isEqualTo(ProblemType.MISSING_API_KEY);
		assertThat(this.keys.checkNow(exchange("not-a-key")).refusal().type()).isEqualTo(ProblemType.INVALID_API_KEY);
		assertThat(this.stored.lookups()).isZero();
	}

	@Test
	void aKeyNotInTheCacheIsLookedUpOnceThenDecidedAtOnce() {
		assertThat(this.keys.checkNow(exchange(KEY))).isNull();
		this.keys.lookUp(exchange(KEY))
			.as(StepVerifier::create)
			.assertNext((check) -> assertThat(check.principal().plan()).isEqualTo("default"))
			.verifyComplete();
		assertThat(this.keys.checkNow(exchange(KEY)).isGranted()).isTrue();
		assertThat(this.stored.lookups()).isEqualTo(1);
	}

	@Test
	void anUnknownOrExpiredKeyGetsTheSameInvalidApiKey() {
		this.keys.lookUp(exchange("hpk_" + "U".repeat(32)))
			.as(StepVerifier::create)
			.assertNext((check) -> assertThat(check.refusal().type()).isEqualTo(ProblemType.INVALID_API_KEY))
			.verifyComplete();
		this.keys.lookUp(exchange(EXPIRED_KEY))
			.as(StepVerifier::create)
			.assertNext((check) -> assertThat(check.refusal().type()).isEqualTo(ProblemType.INVALID_API_KEY))
			.verifyComplete();
	}

	@Test
	void aSuspendedPartnerIsRefusedOnceItsKeyIsKnown() {
		this.keys.lookUp(exchange(SUSPENDED_KEY))
			.as(StepVerifier::create)
			.assertNext((check) -> assertThat(check.refusal().type()).isEqualTo(ProblemType.PARTNER_SUSPENDED))
			.verifyComplete();
	}

	@Test
	void theGateIsAskedBeforeALookUpAndItsRefusalIsTheAnswer() {
		this.gateAnswer.set(Mono.error(new ApiException(ProblemType.RATE_LIMITED, "used up")));
		this.keys.lookUp(exchange("hpk_" + "Z".repeat(32)))
			.as(StepVerifier::create)
			.verifyErrorSatisfies(
					(failure) -> assertThat(((ApiException) failure).type()).isEqualTo(ProblemType.RATE_LIMITED));
		assertThat(this.gateAsked).hasValue(1);
		assertThat(this.stored.lookups()).isZero();
	}

	private static MockServerWebExchange exchange(String key) {
		MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/api/v1/auth/me");
		if (key != null) {
			request.header(ApiKeys.HEADER, key);
		}
		return MockServerWebExchange.from(request);
	}

}
