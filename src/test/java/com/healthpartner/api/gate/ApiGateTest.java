package com.healthpartner.api.gate;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpMethod;
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
import com.healthpartner.api.problem.RequestIds;
import com.healthpartner.api.ratelimit.TestRateLimits;
import com.healthpartner.api.signature.TestSignatures;
import com.healthpartner.api.support.MutableClock;
import com.healthpartner.api.web.AccessLog;
import com.healthpartner.api.web.Deadline;
import com.healthpartner.api.web.InFlightRequests;
import com.healthpartner.api.web.LogAttributes;
import com.healthpartner.api.web.TestAnswers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate on its own, on mock exchanges: what each kind of request gets before any
 * handler, in the order docs/api.md gives, and what reaches the handler. Keys are held in
 * memory, limits in the in-memory limiter.
 */
class ApiGateTest {

	private static final String KEY = "hpk_" + "A".repeat(32);

	private static final String SUSPENDED_KEY = "hpk_" + "S".repeat(32);

	private final MutableClock clock = new MutableClock();

	private final InMemoryKeys stored = new InMemoryKeys();

	private final TestRateLimits limits = new TestRateLimits(this.clock, 3);

	private final ByteArrayOutputStream log = new ByteArrayOutputStream();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final AccessLog accessLog = TestAnswers.accessLog(this.log, this.meters);

	private final ApiGate gate = new ApiGate(new AdminToken(Problems.PROPERTIES),
			this.stored.apiKeys(this.limits.gate(), this.clock), this.limits.limits(),
			TestSignatures.over(this.stored, this.clock, Problems.PROPERTIES),
			new Deadline(Duration.ofSeconds(10), Duration.ofSeconds(10)), new InFlightRequests(), Problems.writer(),
			TestAnswers.to(this.accessLog, this.meters));

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
		// the access log line's partner id, as text
		assertThat(this.handled.get().<Object>getAttribute(LogAttributes.PARTNER_ID))
			.isEqualTo(this.partner.partnerId().toString());
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
	void aPartnersKeyThatCannotBeCheckedKeepsTheFailureWhateverItsAddressHasUsed() {
		run(request("/api/v1/health/metrics/catalog", KEY));
		R2dbcNonTransientResourceException down = new R2dbcNonTransientResourceException("Connection refused");
		this.stored.outage(down);
		for (int i = 0; i < 5; i++) {
			MockServerWebExchange exchange = MockServerWebExchange.from(request("/api/v1/health/metrics/catalog", KEY)
				.remoteAddress(new InetSocketAddress("203.0.113.7", 4000)));
			this.gate.filter(exchange, (passed) -> {
				this.handled.set(passed);
				return Mono.empty();
			}).as(StepVerifier::create).expectErrorMatches((failure) -> failure == down).verify();
			assertThat(exchange.getResponse().getStatusCode()).isNull();
			assertThat(exchange.getResponse().getHeaders().getFirst("RateLimit-Policy"))
				.isEqualTo("\"anonymous\";q=3;w=60");
		}
		this.stored.outage(null);
		this.handled.set(null);
		MockServerWebExchange back = run(request("/api/v1/health/metrics/catalog", KEY));
		assertThat(this.handled.get()).isNotNull();
		assertThat(back.getResponse().getHeaders().getFirst("RateLimit-Policy")).isEqualTo("\"default\";q=60;w=60");
		// the address's window is used up (five requests against three): the partner's
		// key passed regardless, a request without one does not
		assertThat(run(request("/api/v1/health/metrics", null)).getResponse().getStatusCode())
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
	}

	@Test
	void aMadeUpKeyThatCannotBeCheckedCountsUnderItsAddress() {
		String madeUp = "hpk_" + "M".repeat(32);
		this.stored.outage(new R2dbcNonTransientResourceException("Connection refused"));
		MockServerWebExchange exchange = null;
		for (int i = 0; i < 4; i++) {
			exchange = MockServerWebExchange.from(request("/api/v1/health/metrics/catalog", madeUp)
				.remoteAddress(new InetSocketAddress("203.0.113.7", 4000)));
			this.gate.filter(exchange, (passed) -> Mono.empty())
				.onErrorComplete()
				.as(StepVerifier::create)
				.verifyComplete();
		}
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(exchange.getResponse().getHeaders().getFirst("RateLimit-Policy"))
			.isEqualTo("\"anonymous\";q=3;w=60");
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
	void aUsedUpPlanIsRefusedAtTheEdgeWithTheAnswerTheFilterGivesAndLoggedAlike() throws Exception {
		for (int i = 0; i < 60; i++) {
			assertThat(atTheEdge(HttpMethod.POST, "/api/v1/health/metrics", KEY)).as("request %d, within the plan", i)
				.isNull();
			this.handled.set(null);
			run(request("/api/v1/health/metrics", KEY));
			assertThat(this.handled.get()).as("request %d: the edge took nothing", i).isNotNull();
		}
		this.accessLog.start();
		FullHttpResponse edge = atTheEdge(HttpMethod.POST, "/api/v1/health/metrics", KEY);
		this.accessLog.stop();
		MockServerWebExchange inTheWebLayer = runWithId(
				MockServerHttpRequest.post("/api/v1/health/metrics").header(ApiKeys.HEADER, KEY));
		assertThat(edge.status().code()).isEqualTo(429);
		assertThat(inTheWebLayer.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		List<String> edgeHeaders = headerLines(edge);
		List<String> webHeaders = new ArrayList<>();
		inTheWebLayer.getResponse()
			.getHeaders()
			.forEach((name, values) -> values
				.forEach((value) -> webHeaders.add(name.toLowerCase(Locale.ROOT) + ": " + value)));
		assertThat(edgeHeaders).containsExactlyElementsOf(webHeaders)
			.contains("x-request-id: trace-429", "x-ratelimit-remaining: 0", "content-type: application/problem+json");
		assertThat(edge.content().toString(StandardCharsets.UTF_8)).isEqualTo(body(inTheWebLayer))
			.contains("\"code\":\"rate_limited\"", "\"request_id\":\"trace-429\"");
		edge.release();
		Map<String, Object> line = JsonMapper.builder()
			.build()
			.readValue(this.log.toString(StandardCharsets.UTF_8), new TypeReference<>() {
			});
		assertThat(line).containsEntry("request_id", "trace-429")
			.containsEntry("method", "POST")
			.containsEntry("route", "UNMATCHED")
			.containsEntry("path", "/api/v1/health/metrics")
			.containsEntry("status", 429)
			.containsEntry("partner_id", this.partner.partnerId().toString());
		assertThat(this.meters.get("http.server.requests").tag("status", "429").timer().count()).isOne();
		assertThat(this.limits.meters()
			.get("ratelimit.decisions")
			.tag("policy", "default")
			.tag("outcome", "limited")
			.counter()
			.count()).as("the edge's refusal and the filter's").isEqualTo(2);
		FullHttpResponse again = atTheEdge(HttpMethod.POST, "/api/v1/health/metrics", KEY);
		assertThat(headerLines(again)).as("the next refusal of the same second, from what the first prepared")
			.containsExactlyElementsOf(webHeaders);
		assertThat(again.content().toString(StandardCharsets.UTF_8)).isEqualTo(body(inTheWebLayer));
		again.release();
	}

	@Test
	void theEdgeLeavesToTheWebLayerWhatIsNotAUsedUpPlansRefusal() {
		for (int i = 0; i < 60; i++) {
			run(request("/api/v1/auth/me", KEY));
		}
		assertThat(atTheEdge(HttpMethod.GET, "/api/v1/auth/me", KEY)).as("the plan is used up").isNotNull();
		assertThat(atTheEdge(HttpMethod.HEAD, "/api/v1/auth/me", KEY)).as("a HEAD, whose answer has no body").isNull();
		assertThat(atTheEdge(HttpMethod.GET, "/admin/v1/partners", KEY)).isNull();
		assertThat(atTheEdge(HttpMethod.GET, "/docs", KEY)).isNull();
		assertThat(atTheEdge(HttpMethod.POST, "/api/v1/auth", KEY)).as("a registration, which needs no key").isNull();
		assertThat(atTheEdge(HttpMethod.GET, "/api/v1/auth/me", null)).as("no key").isNull();
		assertThat(atTheEdge(HttpMethod.GET, "/api/v1/auth/me", SUSPENDED_KEY)).as("a suspended partner").isNull();
		assertThat(atTheEdge(HttpMethod.GET, "/api/v1/auth/me", "hpk_" + "U".repeat(32))).as("a key not in the cache")
			.isNull();
		this.clock.advance(Duration.ofSeconds(61));
		assertThat(atTheEdge(HttpMethod.GET, "/api/v1/auth/me", KEY)).as("the window has ended").isNull();
		run(request("/api/v1/auth/me", KEY));
		assertThat(this.handled.get()).isNotNull();
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

	/** {@link #run}, with the id and header {@code EdgeFilter} gives a request first. */
	private MockServerWebExchange runWithId(MockServerHttpRequest.BaseBuilder<?> request) {
		MockServerWebExchange exchange = MockServerWebExchange.from(request.header(RequestIds.HEADER, "trace-429")
			.remoteAddress(new InetSocketAddress("203.0.113.7", 4000)));
		exchange.getResponse().getHeaders().set(RequestIds.HEADER, RequestIds.assign(exchange));
		this.gate.filter(exchange, (passed) -> {
			this.handled.set(passed);
			return Mono.empty();
		}).as(StepVerifier::create).verifyComplete();
		return exchange;
	}

	/**
	 * An answer's headers as {@code name: value} lines, names in lower case, in order.
	 */
	private static List<String> headerLines(FullHttpResponse answer) {
		List<String> lines = new ArrayList<>();
		answer.headers()
			.forEach((header) -> lines.add(header.getKey().toLowerCase(Locale.ROOT) + ": " + header.getValue()));
		return lines;
	}

	/** The gate's answer to a request head at the HTTP edge, or null. */
	private FullHttpResponse atTheEdge(HttpMethod method, String path, String key) {
		return this.gate.answer(edgeRequest(method, path, key), path);
	}

	/** A request's head as the HTTP edge holds it. */
	private static HttpRequest edgeRequest(HttpMethod method, String path, String key) {
		HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1,
				io.netty.handler.codec.http.HttpMethod.valueOf(method.name()), path);
		request.headers().set(RequestIds.HEADER, "trace-429");
		if (key != null) {
			request.headers().set(ApiKeys.HEADER, key);
		}
		return request;
	}

	private static MockServerHttpRequest.BaseBuilder<?> request(String path, String key) {
		MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get(path);
		return (key != null) ? request.header(ApiKeys.HEADER, key) : request;
	}

	private static String body(MockServerWebExchange exchange) {
		return exchange.getResponse().getBodyAsString().block(Duration.ofSeconds(1));
	}

}
