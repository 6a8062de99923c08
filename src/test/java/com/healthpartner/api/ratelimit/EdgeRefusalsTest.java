package com.healthpartner.api.ratelimit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.netty.handler.codec.http.FullHttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.healthpartner.api.problem.Problems;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The edge's {@code 429}s: made once for what they share and kept while it holds, but
 * each says what its own decision says (the seconds left, the window's end, the policy,
 * the path) and carries its own request id.
 */
class EdgeRefusalsTest {

	private static final String PATH = "/api/v1/health/metrics";

	private static final Policy DEFAULT = new Policy("default", 60, Duration.ofMinutes(1));

	/** The window's end: 2026-12-04T17:00:07.400Z. */
	private static final long RESET = 1_796_403_607_400L;

	private final EdgeRefusals refusals = new EdgeRefusals(Problems.writer());

	/**
	 * Every answer made, released after the test as the edge releases it once written.
	 */
	private final List<FullHttpResponse> answers = new ArrayList<>();

	@AfterEach
	void releaseTheAnswers() {
		this.answers.forEach(FullHttpResponse::release);
	}

	@Test
	void refusalsOfOneSecondShareAllButTheirRequestId() {
		FullHttpResponse first = answer(refused(DEFAULT, RESET - 6_500), PATH, "trace-1");
		FullHttpResponse second = answer(refused(DEFAULT, RESET - 6_100), PATH, "trace-2");
		assertThat(lines(second))
			.isEqualTo(lines(first).stream().map((line) -> line.replace("trace-1", "trace-2")).toList());
		assertThat(lines(first)).contains("X-Request-Id: trace-1", "X-RateLimit-Limit: 60", "X-RateLimit-Remaining: 0",
				"X-RateLimit-Reset: 1796403608", "RateLimit-Policy: \"default\";q=60;w=60",
				"RateLimit: \"default\";r=0;t=7", "Retry-After: 7", "content-type: application/problem+json",
				"cache-control: no-store");
		assertThat(body(first)).contains("retry in 7 s\"", "\"instance\":\"" + PATH + "\"",
				"\"request_id\":\"trace-1\"");
	}

	@Test
	void eachRefusalSaysWhatItsOwnDecisionSays() {
		answer(refused(DEFAULT, RESET - 6_500), PATH, "trace-1");
		FullHttpResponse aSecondLater = answer(refused(DEFAULT, RESET - 5_500), PATH, "trace-2");
		assertThat(lines(aSecondLater)).contains("RateLimit: \"default\";r=0;t=6", "Retry-After: 6");
		assertThat(body(aSecondLater)).contains("retry in 6 s\"");
		FullHttpResponse lastMoment = answer(refused(DEFAULT, RESET - 100), PATH, "trace-3");
		assertThat(lines(lastMoment)).as("never less than a second to wait")
			.contains("RateLimit: \"default\";r=0;t=1", "Retry-After: 1");
		FullHttpResponse otherPath = answer(refused(DEFAULT, RESET - 6_500), "/api/v1/health/assessments", "trace-4");
		assertThat(body(otherPath)).contains("\"instance\":\"/api/v1/health/assessments\"");
		FullHttpResponse otherWindow = answer(refused(DEFAULT, RESET + 20_000 - 6_500, RESET + 20_000), PATH,
				"trace-5");
		assertThat(lines(otherWindow)).contains("X-RateLimit-Reset: 1796403628", "Retry-After: 7");
		Policy enterprise = new Policy("enterprise", 300, Duration.ofMinutes(1));
		FullHttpResponse otherPlan = answer(refused(enterprise, RESET - 6_500), PATH, "trace-6");
		assertThat(lines(otherPlan)).contains("X-RateLimit-Limit: 300", "RateLimit-Policy: \"enterprise\";q=300;w=60",
				"RateLimit: \"enterprise\";r=0;t=7");
		assertThat(body(otherPlan)).contains("'enterprise' (300 requests per minute)");
		FullHttpResponse again = answer(refused(DEFAULT, RESET - 6_500), PATH, "trace-7");
		assertThat(lines(again)).contains("RateLimit: \"default\";r=0;t=7", "X-RateLimit-Reset: 1796403608");
	}

	private FullHttpResponse answer(Decision refused, String path, String requestId) {
		FullHttpResponse answer = this.refusals.answer(refused, path, requestId);
		this.answers.add(answer);
		return answer;
	}

	private static Decision refused(Policy policy, long decidedAt) {
		return refused(policy, decidedAt, RESET);
	}

	private static Decision refused(Policy policy, long decidedAt, long resetAt) {
		return new Decision(policy, false, 0, resetAt, decidedAt);
	}

	private static List<String> lines(FullHttpResponse answer) {
		List<String> lines = new ArrayList<>();
		answer.headers().forEach((header) -> lines.add(header.getKey() + ": " + header.getValue()));
		lines.add(body(answer));
		return lines;
	}

	private static String body(FullHttpResponse answer) {
		return answer.content().toString(StandardCharsets.UTF_8);
	}

}
