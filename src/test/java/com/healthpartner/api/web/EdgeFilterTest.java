package com.healthpartner.api.web;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import com.healthpartner.api.problem.RequestIds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first filter on its own: the request id, {@code no-store}, and what an ended
 * request leaves behind, its access log line (here the {@code prod} profile's JSON form,
 * written to a buffer) and its latency timer.
 */
class EdgeFilterTest {

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final AccessLog accessLog = TestAnswers.accessLog(this.out, this.meters);

	private final EdgeFilter filter = new EdgeFilter(TestAnswers.to(this.accessLog, this.meters));

	@AfterEach
	void stop() {
		this.accessLog.stop();
	}

	@Test
	void aSaneIdSentByTheClientIsEchoed() {
		MockServerWebExchange exchange = run(
				MockServerHttpRequest.get("/api/v1/auth/me").header(RequestIds.HEADER, "trace-42.a_b"));
		assertThat(exchange.getResponse().getHeaders().getFirst(RequestIds.HEADER)).isEqualTo("trace-42.a_b");
		assertThat(RequestIds.of(exchange)).isEqualTo("trace-42.a_b");
	}

	@Test
	void anIdWithCharactersOutsideTheRuleIsReplacedByANewOne() {
		MockServerWebExchange exchange = run(
				MockServerHttpRequest.get("/api/v1/auth/me").header(RequestIds.HEADER, "x\"; drop"));
		assertThat(exchange.getResponse().getHeaders().getFirst(RequestIds.HEADER))
			.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
	}

	@ParameterizedTest
	@CsvSource(nullValues = "none", value = { "/api/v1/health/metrics, no-store", "/admin/v1/partners, no-store",
			"/%61pi/v1/auth/me, no-store", "/problems/not_found, none", "/docs, none" })
	void answersOfTheApiAndAdminPathsAreNotStored(String path, String cacheControl) {
		MockServerWebExchange exchange = run(MockServerHttpRequest.method(HttpMethod.GET, URI.create(path)));
		assertThat(exchange.getResponse().getHeaders().getCacheControl()).isEqualTo(cacheControl);
	}

	@Test
	void anEndedRequestLeavesOneJsonLogLineWithoutItsQueryAndALatencySample() throws Exception {
		this.accessLog.start();
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.get("/api/v1/health/metrics?user_id=member-42")
				.header(RequestIds.HEADER, "trace-7"));
		this.filter.filter(exchange, (e) -> {
			e.getResponse().setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
			e.getAttributes().put(LogAttributes.PARTNER_ID, "partner-1");
			return e.getResponse().setComplete();
		}).as(StepVerifier::create).verifyComplete();
		this.accessLog.stop();
		String line = this.out.toString(StandardCharsets.UTF_8);
		assertThat(line).endsWith("}\n").doesNotContain("member-42");
		Map<String, Object> fields = JsonMapper.builder().build().readValue(line, new TypeReference<>() {
		});
		assertThat(fields).containsEntry("request_id", "trace-7")
			.containsEntry("method", "GET")
			.containsEntry("route", "UNMATCHED")
			.containsEntry("path", "/api/v1/health/metrics")
			.containsEntry("status", 429)
			.containsEntry("partner_id", "partner-1")
			.containsEntry("message", "GET /api/v1/health/metrics 429 in " + fields.get("duration_ms") + " ms")
			.containsKeys("@timestamp", "duration_ms", "ecs");
		assertThat(fields.get("log")).isEqualTo(Map.of("level", "INFO", "logger", "com.healthpartner.api.access"));
		assertThat(this.meters.get("http.server.requests").tag("status", "429").tag("uri", "UNKNOWN").timer().count())
			.isEqualTo(1);
	}

	private MockServerWebExchange run(MockServerHttpRequest.BaseBuilder<?> request) {
		MockServerWebExchange exchange = MockServerWebExchange.from(request);
		this.filter.filter(exchange, (e) -> Mono.empty()).as(StepVerifier::create).verifyComplete();
		return exchange;
	}

}
