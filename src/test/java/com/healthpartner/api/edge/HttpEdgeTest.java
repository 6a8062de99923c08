package com.healthpartner.api.edge;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.ObservedResponse;
import com.healthpartner.api.support.OpenApiContract;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.RawHttp;
import com.healthpartner.api.support.RawHttp.Exchange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP edge as a hostile client meets it, over raw sockets: bodies framed ambiguously
 * are refused and their bytes never run as a request, answers given before routing are
 * problem+json with the request id and the anonymous rate-limit headers, and a pipelined
 * request with {@code Connection: close} is answered before the connection closes.
 */
class HttpEdgeTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	private Credentials partner;

	private String user;

	@BeforeEach
	void partner() {
		this.partner = this.partners.onboard("loadtest");
		this.user = "member-" + UUID.randomUUID();
	}

	@Test
	void aBodyWithAnotherTransferCodingIsRefusedAndTheRequestInItNeverRuns() throws IOException {
		String smuggled = store(this.user, null);
		Exchange answer = RawHttp.send(this.port,
				head("POST", "/api/v1/health/metrics") + "Transfer-Encoding: gzip\r\n\r\n" + smuggled, 3000);
		assertRefused(answer, 400, "validation_failed");
		assertThat(answer.answers()).isOne();
		assertThat(stored(this.user)).isZero();
	}

	@Test
	void anUnknownTransferCodingWithAContentLengthIsRefused() throws IOException {
		String body = body(this.user);
		Exchange answer = RawHttp.send(this.port, head("POST", "/api/v1/health/metrics")
				+ "Transfer-Encoding: xchunked\r\nContent-Length: " + body.length() + "\r\n\r\n" + body, 3000);
		assertRefused(answer, 400, "validation_failed");
		assertThat(stored(this.user)).isZero();
	}

	@Test
	void chunkedAfterAnotherCodingIsRefused() throws IOException {
		String body = body(this.user);
		Exchange answer = RawHttp.send(this.port,
				head("POST", "/api/v1/health/metrics") + "Transfer-Encoding: gzip, chunked\r\n\r\n"
						+ Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n",
				3000);
		assertRefused(answer, 400, "validation_failed");
		assertThat(stored(this.user)).isZero();
	}

	@Test
	void twoContentLengthsAreRefused() throws IOException {
		String body = body(this.user);
		Exchange answer = RawHttp.send(this.port, head("POST", "/api/v1/health/metrics") + "Content-Length: "
				+ body.length() + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body, 3000);
		assertRefused(answer, 400, "validation_failed");
		assertThat(stored(this.user)).isZero();
	}

	@Test
	void aContentLengthWithASignIsRefused() throws IOException {
		String body = body(this.user);
		Exchange answer = RawHttp.send(this.port,
				head("POST", "/api/v1/health/metrics") + "Content-Length: +" + body.length() + "\r\n\r\n" + body, 3000);
		assertRefused(answer, 400, "validation_failed");
		assertThat(stored(this.user)).isZero();
	}

	@Test
	void anUndecodablePercentEncodingIsAProblemWithTheRequestIdAndTheAnonymousLimit() throws IOException {
		Exchange answer = RawHttp.send(this.port,
				"GET /api/v1/health/metrics?user_id=%zz HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: edge-test-1\r\n"
						+ "x-api-key: " + this.partner.apiKey() + "\r\n\r\n",
				3000);
		assertRefused(answer, 400, "validation_failed");
		assertThat(answer.header("X-Request-Id")).isEqualTo("edge-test-1");
		assertThat(answer.body()).contains("\"request_id\":\"edge-test-1\"")
			.contains("\"instance\":\"/api/v1/health/metrics\"")
			.contains("percent");
	}

	@Test
	void aRequestLineOverItsLimitIsA414Problem() throws IOException {
		Exchange answer = RawHttp.send(this.port,
				"GET /api/v1/health/metrics?user_id=" + "a".repeat(5000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n",
				3000);
		assertRefused(answer, 414, "uri_too_long");
		assertThat(answer.body()).contains("\"instance\":\"/api/v1/health/metrics\"");
		assertDocumented(answer.observed("GET", "/api/v1/health/metrics"));
	}

	@Test
	void aHeadOverItsLimitIsA431Problem() throws IOException {
		Exchange answer = RawHttp.send(this.port, "GET /api/v1/health/metrics HTTP/1.1\r\nHost: localhost\r\nX-Big: "
				+ "a".repeat(64 * 1024) + "\r\n\r\n", 3000);
		assertRefused(answer, 431, "request_header_fields_too_large");
		assertDocumented(answer.observed("GET", "/api/v1/health/metrics"));
	}

	@Test
	void answersBeforeRoutingOnAdminPathsAreDocumentedToo() throws IOException {
		Exchange tooLong = RawHttp.send(this.port,
				"GET /admin/v1/partners?plan=" + "a".repeat(5000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n", 3000);
		assertThat(tooLong.status(0)).isEqualTo(414);
		assertDocumented(tooLong.observed("GET", "/admin/v1/partners"));
		Exchange tooLarge = RawHttp.send(this.port,
				"GET /admin/v1/partners HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(64 * 1024) + "\r\n\r\n",
				3000);
		assertThat(tooLarge.status(0)).isEqualTo(431);
		assertDocumented(tooLarge.observed("GET", "/admin/v1/partners"));
	}

	private static void assertDocumented(ObservedResponse answer) {
		List<String> violations = OpenApiContract.shared().violations(answer);
		assertThat(violations).as(OpenApiContract.describe(answer, violations)).isEmpty();
	}

	@Test
	void anAnswerBeforeRoutingOutsideTheApiHasNoRateLimitHeaders() throws IOException {
		Exchange answer = RawHttp.send(this.port, "GET /problems/x?a=%zz HTTP/1.1\r\nHost: localhost\r\n\r\n", 3000);
		assertThat(answer.status(0)).isEqualTo(400);
		assertThat(answer.header("Content-Type")).isEqualTo("application/problem+json");
		assertThat(answer.header("X-Request-Id")).isNotBlank();
		assertThat(answer.header("RateLimit-Policy")).isNull();
	}

	@Test
	void aUsedUpPlansRefusalIsAnsweredWithoutRunningItsBodyAndTheConnectionGoesOn() throws IOException {
		Credentials limited = usedUp();
		String body = body(this.user);
		String refused = "POST /api/v1/health/metrics HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
				+ "x-api-key: " + limited.apiKey() + "\r\nX-Request-Id: edge-429\r\nContent-Length: " + body.length()
				+ "\r\n\r\n" + body;
		Exchange answer = RawHttp.send(this.port, refused + me(this.partner), 1500);
		assertThat(answer.answers()).as(answer.text()).isEqualTo(2);
		assertThat(answer.status(0)).isEqualTo(429);
		assertThat(answer.status(1)).isEqualTo(200);
		assertThat(answer.closed()).as("the connection stays open").isFalse();
		Exchange turns = RawHttp.inTurns(this.port, List.of(refused, me(limited), me(this.partner)), 500);
		assertThat(turns.answers()).as("each request sent after the answer before: " + turns.text()).isEqualTo(3);
		assertThat(List.of(turns.status(0), turns.status(1), turns.status(2))).containsExactly(429, 429, 200);
		assertThat(answer.header("X-Request-Id")).isEqualTo("edge-429");
		assertThat(answer.header("RateLimit-Policy")).isEqualTo("\"default\";q=60;w=60");
		assertThat(answer.header("X-RateLimit-Remaining")).isEqualTo("0");
		assertThat(answer.header("Retry-After")).isNotBlank();
		assertThat(answer.header("Cache-Control")).isEqualTo("no-store");
		assertThat(answer.body()).contains("\"code\":\"rate_limited\"", "\"request_id\":\"edge-429\"",
				"\"instance\":\"/api/v1/health/metrics\"");
		assertDocumented(answer.observed("POST", "/api/v1/health/metrics"));
		assertThat(stored(this.user)).isZero();
	}

	@Test
	void aChunkedBodyOfARefusedRequestIsDroppedWholeToo() throws IOException {
		Credentials limited = usedUp();
		String body = body(this.user);
		String half = body.substring(0, 10);
		String chunked = "POST /api/v1/health/metrics HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
				+ "x-api-key: " + limited.apiKey() + "\r\nTransfer-Encoding: chunked\r\n\r\n"
				+ Integer.toHexString(half.length()) + "\r\n" + half + "\r\n"
				+ Integer.toHexString(body.length() - half.length()) + "\r\n" + body.substring(half.length())
				+ "\r\n0\r\n\r\n";
		Exchange answer = RawHttp.send(this.port, chunked + me(limited) + me(this.partner), 1500);
		assertThat(answer.answers()).as(answer.text()).isEqualTo(3);
		assertThat(answer.status(0)).isEqualTo(429);
		assertThat(answer.status(1)).isEqualTo(429);
		assertThat(answer.status(2)).isEqualTo(200);
		assertThat(answer.closed()).isFalse();
		assertThat(stored(this.user)).isZero();
	}

	/** A partner on the default plan whose window is used up. */
	private Credentials usedUp() {
		Credentials limited = this.partners.onboard("default");
		for (int i = 0; i < 60; i++) {
			this.client.get()
				.uri("/api/v1/auth/me")
				.header("x-api-key", limited.apiKey())
				.exchange()
				.expectStatus()
				.isOk();
		}
		return limited;
	}

	private static String me(Credentials partner) {
		return "GET /api/v1/auth/me HTTP/1.1\r\nHost: localhost\r\nx-api-key: " + partner.apiKey() + "\r\n\r\n";
	}

	@Test
	void aPipelinedRequestWithConnectionCloseIsAnsweredThenTheConnectionCloses() throws IOException {
		String me = "GET /api/v1/auth/me HTTP/1.1\r\nHost: localhost\r\nx-api-key: " + this.partner.apiKey() + "\r\n";
		Exchange answer = RawHttp.send(this.port, me + "\r\n" + me + "Connection: close\r\n\r\n", 5000);
		assertThat(answer.answers()).isEqualTo(2);
		assertThat(answer.status(0)).isEqualTo(200);
		assertThat(answer.status(1)).isEqualTo(200);
		assertThat(answer.closed()).isTrue();
	}

	@Test
	void nothingAfterARequestWithConnectionCloseIsRun() throws IOException {
		String me = "GET /api/v1/auth/me HTTP/1.1\r\nHost: localhost\r\nx-api-key: " + this.partner.apiKey() + "\r\n";
		Exchange answer = RawHttp.send(this.port,
				me + "\r\n" + me + "Connection: close\r\n\r\n" + store(this.user, null), 5000);
		assertThat(answer.answers()).isEqualTo(2);
		assertThat(answer.closed()).isTrue();
		assertThat(stored(this.user)).isZero();
	}

	private void assertRefused(Exchange answer, int status, String code) {
		assertThat(answer.status(0)).as(answer.text()).isEqualTo(status);
		assertThat(answer.header("Content-Type")).isEqualTo("application/problem+json");
		assertThat(answer.header("Connection")).isEqualToIgnoringCase("close");
		assertThat(answer.header("X-Request-Id")).isNotBlank();
		assertThat(answer.header("RateLimit-Policy")).isEqualTo("\"anonymous\";q=" + PER_IP_LIMIT + ";w=60");
		assertThat(answer.header("X-RateLimit-Limit")).isEqualTo(PER_IP_LIMIT);
		assertThat(answer.body()).contains("\"code\":\"" + code + "\"").doesNotContain("Exception");
		assertThat(answer.closed()).as("the connection is closed").isTrue();
	}

	private String head(String method, String path) {
		return method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nx-api-key: "
				+ this.partner.apiKey() + "\r\n";
	}

	/** A complete request that stores a record for {@code user}. */
	private String store(String user, String extraHeaders) {
		String body = body(user);
		return head("POST", "/api/v1/health/metrics") + ((extraHeaders != null) ? extraHeaders : "")
				+ "Content-Length: " + body.length() + "\r\n\r\n" + body;
	}

	private static String body(String user) {
		return "{\"user_id\":\"" + user + "\",\"metrics\":{\"weight\":72.5}}";
	}

	private long stored(String user) {
		return this.db.sql("select count(*) from metric_records where user_id = :user")
			.bind("user", user)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block();
	}

}
