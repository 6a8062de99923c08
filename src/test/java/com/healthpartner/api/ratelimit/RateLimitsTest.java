package com.healthpartner.api.ratelimit;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.http.HttpHeaders;
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
 * The limits on their own, on the in-memory limiter and a clock the test moves: a
 * partner's plan is its window, decisions are taken at once and their headers written
 * straight away, and a registration meets both per-address policies.
 */
class RateLimitsTest {

	private final MutableClock clock = new MutableClock();

	private final RateLimits limits = new TestRateLimits(this.clock, 5).limits();

	private final ApiPrincipal partner = new ApiPrincipal(UUID.randomUUID(), "Iron Gym", "default",
			PartnerStatus.ACTIVE, UUID.randomUUID(), Scope.all(), false, null, new byte[0]);

	@Test
	void thePlansLimitIsTheWindowAndTheNextRequestIsRefusedWithItsHeaders() {
		for (int i = 0; i < 60; i++) {
			assertThat(this.limits.partnerNow(exchange(), this.partner).allowed()).isTrue();
		}
		MockServerWebExchange refused = exchange();
		Decision decision = this.limits.partnerNow(refused, this.partner);
		assertThat(decision.allowed()).isFalse();
		HttpHeaders headers = refused.getResponse().getHeaders();
		assertThat(headers.getFirst("X-RateLimit-Limit")).isEqualTo("60");
		assertThat(headers.getFirst("X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(headers.getFirst("RateLimit-Policy")).isEqualTo("\"default\";q=60;w=60");
		assertThat(headers.getFirst("RateLimit")).matches("\"default\";r=0;t=[1-9][0-9]?");
		ApiException problem = RateLimits.limited(decision);
		assertThat(problem.type()).isEqualTo(ProblemType.RATE_LIMITED);
		assertThat(Long.parseLong(problem.headers().get("Retry-After"))).isBetween(1L, 60L);
	}

	@Test
	void aNewWindowStartsWithTheFirstRequestAfterTheLastEnded() {
		for (int i = 0; i < 61; i++) {
			this.limits.partnerNow(exchange(), this.partner);
		}
		this.clock.advance(Duration.ofSeconds(61));
		assertThat(this.limits.partnerNow(exchange(), this.partner).remaining()).isEqualTo(59);
	}

	@Test
	void aRegistrationListsBothPoliciesAndTheTighterOneBinds() {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.post("/api/v1/auth").remoteAddress(new InetSocketAddress("203.0.113.9", 5000)));
		this.limits.registration(exchange)
			.as(StepVerifier::create)
			.assertNext((binding) -> assertThat(binding.policy().name()).isEqualTo("anonymous"))
			.verifyComplete();
		HttpHeaders headers = exchange.getResponse().getHeaders();
		assertThat(headers.getFirst("RateLimit-Policy"))
			.isEqualTo("\"anonymous\";q=5;w=60, \"registration\";q=10;w=3600");
		assertThat(headers.getFirst("X-RateLimit-Remaining")).isEqualTo("4");
	}

	private static MockServerWebExchange exchange() {
		return MockServerWebExchange.from(MockServerHttpRequest.get("/api/v1/health/metrics/catalog"));
	}

}
