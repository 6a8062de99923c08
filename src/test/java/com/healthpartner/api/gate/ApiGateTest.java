package com.healthpartner.api.gate;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.access.AdminToken;
import com.healthpartner.api.access.ApiKeys;
import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.InMemoryKeys;
import com.healthpartner.api.access.PartnerStatus;
import com.healthpartner.api.problem.Problems;
import com.healthpartner.api.ratelimit.TestRateLimits;
import com.healthpartner.api.signature.TestSignatures;
import com.healthpartner.api.support.MutableClock;
import com.healthpartner.api.web.Deadline;
import com.healthpartner.api.web.InFlightRequests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate on its own, on mock exchanges: what each kind of request gets before any
 * handler, in the contract's order, and what reaches the handler. Keys are held in
 * memory, limits in the in-memory limiter.
 */
class ApiGateTest {

	private static final String KEY = "hpk_" + "A".repeat(32);

	private static final String SUSPENDED_KEY = "hpk_" + "S".repeat(32);

	private final MutableClock clock = new MutableClock();

	private final InMemoryKeys stored = new InMemoryKeys();

	private final TestRateLimits limits = new TestRateLimits(this.clock, 3);

	private final ApiGate gate = new ApiGate(new AdminToken(Problems.PROPERTIES),
			this.stored.apiKeys(this.limits.gate(), this.clock), this.limits.limits(),
			TestSignatures.over(this.stored, this.clock, Problems.PROPERTIES), new Deadline(Duration.ofSeconds(10)),
			new InFlightRequests(), Problems.writer());

	private final AtomicReference<ServerWebExchange> handled = new AtomicReference<>();

	private final ApiPrincipal partner = this.stored.add(KEY, "default", PartnerStatus.ACTIVE, null);

	{
		this.stored.add(SUSPENDED_KEY, "default", PartnerStatus.SUSPENDED, null);
	}

	@Test
	void aValidKeyReachesTheHandlerWithItsPrincipalAndThePlansHeaders() {
		MockServerWebExchange exchange = run(request("/api/v1/health/metrics/catalog", KEY));
		assertThat(this.handled.get()).isNotNull();
		ApiPrincipal principal = this.handled.get().getAttribute(ApiPrincipal.ATTRIBUTE);
		assertThat(principal.partnerId()).isEqualTo(this.partner.partnerId());
		assertThat(exchange.getResponse().getHeaders().getFirst("RateLimit-Policy")).isEqualTo("\"default\";q=60;w=60");
	}

	@Test
	void noKeyIsA401ProblemWithTheAddressesHeadersAndNoHandler() {
		MockServerWebExchange exchange = run(request("/api/v1/health/metrics", null));
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
		assertThat(body(exchange)).contains("\"code\":\"missing_api_key\"");
		assertThat(exchange.getResponse().getHeaders().getFirst("RateLimit-Policy"))
			.isEqualTo("\"anonymous\";q=3;w=60");
		assertThat(this.handled.get()).isNull();
	}

	@Test
	void aSuspendedPartnerIs403AndCountsAgainstItsAddressUntilThatIsUsedUp() {
		for (int i = 0; i < 3; i++) {
			assertThat(run(request("/api/v1/auth/me", SUSPENDED_KEY)).getResponse().getStatusCode())
				.isEqualTo(HttpStatus.FORBIDDEN);
		}
		MockServerWebExchange exchange = run(request("/api/v1/auth/me", SUSPENDED_KEY));
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isNotNull();
		assertThat(this.handled.get()).isNull();
	}

	@Test
	void aPartnerOverItsPlanGetsA429BeforeAnyHandler() {
		for (int i = 0; i < 60; i++) {
			run(request("/api/v1/health/metrics/catalog", KEY));
		}
		this.handled.set(null);
		MockServerWebExchange exchange = run(request("/api/v1/health/metrics/catalog", KEY));
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(body(exchange)).contains("\"code\":\"rate_limited\"").contains("'default' (60 requests per minute)");
		assertThat(exchange.getResponse().getHeaders().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(this.handled.get()).isNull();
	}

	@Test
	void theAdminRoutesNeedTheAdminTokenAndPartnerKeysDoNotOpenThem() {
		MockServerWebExchange refused = run(request("/admin/v1/partners", KEY));
		assertThat(refused.getResponse().getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
		assertThat(body(refused)).contains("\"code\":\"invalid_admin_token\"");
		run(MockServerHttpRequest.get("/admin/v1/partners")
			.header("Authorization", "Bearer " + Problems.PROPERTIES.adminToken()));
		assertThat(this.handled.get()).isNotNull();
	}

	@Test
	void publicPathsPassUntouched() {
		MockServerWebExchange exchange = run(MockServerHttpRequest.get("/problems/not_found"));
		assertThat(this.handled.get()).isNotNull();
		assertThat(exchange.getResponse().getHeaders().getFirst("RateLimit-Policy")).isNull();
	}

	private MockServerWebExchange run(MockServerHttpRequest.BaseBuilder<?> request) {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(request.remoteAddress(new InetSocketAddress("203.0.113.7", 4000)));
		this.gate.filter(exchange, (passed) -> {
			this.handled.set(passed);
			return Mono.empty();
		}).as(StepVerifier::create).verifyComplete();
		return exchange;
	}

	private static MockServerHttpRequest.BaseBuilder<?> request(String path, String key) {
		MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get(path);
		return (key != null) ? request.header(ApiKeys.HEADER, key) : request;
	}

	private static String body(MockServerWebExchange exchange) {
		return exchange.getResponse().getBodyAsString().block(Duration.ofSeconds(1));
	}

}
