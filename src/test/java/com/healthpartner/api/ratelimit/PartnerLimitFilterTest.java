package com.healthpartner.api.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.PartnerStatus;
import com.healthpartner.api.access.Scope;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Check 3 on its own, on the in-memory limiter and a clock the test moves: a partner's
 * plan is its window, a refusal reaches no handler, and the next window starts afresh.
 */
class PartnerLimitFilterTest {

	private final MutableClock clock = new MutableClock();

	private final RateLimitProperties properties = new RateLimitProperties("default=60,enterprise=300", 60, 10, "local",
			"");

	private final PartnerLimitFilter filter = new PartnerLimitFilter(
			new RateLimits(new LocalRateLimiter(this.clock), new SimpleMeterRegistry()),
			new Policies(new Plans(this.properties), this.properties));

	private final AtomicInteger handled = new AtomicInteger();

	private final ApiPrincipal partner = new ApiPrincipal(UUID.randomUUID(), "Iron Gym", "default",
			PartnerStatus.ACTIVE, UUID.randomUUID(), Scope.all(), false, null, new byte[0]);

	@Test
	void thePlansLimitIsTheWindowAndTheNextRequestIsA429WithRetryAfter() {
		for (int i = 0; i < 60; i++) {
			run().verifyComplete();
		}
		MockServerWebExchange refused = exchange();
		run(refused).verifyErrorSatisfies((failure) -> {
			ApiException problem = (ApiException) failure;
			assertThat(problem.type()).isEqualTo(ProblemType.RATE_LIMITED);
			assertThat(Long.parseLong(problem.headers().get("Retry-After"))).isBetween(1L, 60L);
		});
		assertThat(this.handled).hasValue(60);
		List<Decision> decisions = RateLimits.decisions(refused);
		assertThat(decisions).singleElement().satisfies((decision) -> {
			assertThat(decision.allowed()).isFalse();
			assertThat(decision.policy().name()).isEqualTo("default");
			assertThat(decision.remaining()).isZero();
		});
	}

	@Test
	void aNewWindowStartsWithTheFirstRequestAfterTheLastEnded() {
		for (int i = 0; i < 60; i++) {
			run().verifyComplete();
		}
		run().expectError(ApiException.class).verify();
		this.clock.advance(Duration.ofSeconds(61));
		MockServerWebExchange exchange = exchange();
		run(exchange).verifyComplete();
		assertThat(RateLimits.decisions(exchange).get(0).remaining()).isEqualTo(59);
	}

	@Test
	void requestsWithoutAPrincipalAreNotCountedHere() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.post("/api/v1/auth"));
		this.filter.filter(exchange, (e) -> Mono.empty()).as(StepVerifier::create).verifyComplete();
		assertThat(RateLimits.decisions(exchange)).isEmpty();
	}

	private StepVerifier.FirstStep<Void> run() {
		return run(exchange());
	}

	private StepVerifier.FirstStep<Void> run(MockServerWebExchange exchange) {
		return this.filter.filter(exchange, (e) -> {
			this.handled.incrementAndGet();
			return Mono.empty();
		}).as(StepVerifier::create);
	}

	private MockServerWebExchange exchange() {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.get("/api/v1/health/metrics/catalog"));
		exchange.getAttributes().put(ApiPrincipal.ATTRIBUTE, this.partner);
		return exchange;
	}

}
