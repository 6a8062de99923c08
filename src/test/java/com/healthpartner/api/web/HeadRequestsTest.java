package com.healthpartner.api.web;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.RawHttp;
import com.healthpartner.api.support.RawHttp.Exchange;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code HEAD} is answered wherever {@code GET} is, with the same status and headers and
 * no body (docs/api.md, The HTTP edge), over raw sockets so that what the server really
 * sends is seen: a record, a page, an export, {@code /api/v1/auth/me}, the OpenAPI
 * document, a missing record, a missing scope. A {@code HEAD} of a record is audited as
 * the read it reveals; a {@code HEAD} of an export runs no export.
 */
class HeadRequestsTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	private Credentials partner;

	private String user;

	private String recordId;

	@BeforeEach
	void record() {
		this.partner = this.partners.onboard("loadtest");
		this.user = "member-" + UUID.randomUUID();
		this.recordId = (String) new HealthApi(this.client)
			.create(HealthApi.METRICS, this.partner.apiKey(),
					"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 72.5}}")
			.get("id");
	}

	@Test
	void aRecordAPageAndMeAnswerHeadAsGetWithoutABody() throws IOException {
		assertHeadLikeGet(HealthApi.METRICS + "/" + this.recordId, 200, "");
		assertHeadLikeGet(HealthApi.METRICS + "?user_id=" + this.user, 200, "");
		assertHeadLikeGet("/api/v1/auth/me", 200, "");
		assertHeadLikeGet(HealthApi.METRICS + "/catalog", 200, "");
	}

	@Test
	void theDocumentationAnswersHead() throws IOException {
		assertHeadLikeGet("/v3/api-docs", 200, "");
	}

	@Test
	void errorsAnswerHeadAsGetWithoutTheirBody() throws IOException {
		assertHeadLikeGet(HealthApi.METRICS + "/" + UUID.randomUUID(), 404, "");
		assertHeadLikeGet(HealthApi.METRICS + "?user_id=", 400, "");
		Credentials writer = this.partners.onboard("loadtest", "metrics:write");
		Map<String, String> head = headers(RawHttp.send(this.port,
				request("HEAD", HealthApi.METRICS + "/" + this.recordId, writer.apiKey(), ""), 5000));
		assertThat(head.get(":status")).isEqualTo("403");
		assertThat(head.get("content-type")).isEqualTo("application/problem+json");
	}

	@Test
	void headOfARouteWithoutGetIs405WithAllow() throws IOException {
		Exchange answer = RawHttp.send(this.port,
				request("HEAD", "/admin/v1/registrations/" + UUID.randomUUID() + "/approve", null,
						"Authorization: Bearer " + ADMIN_TOKEN + "\r\n"),
				5000);
		assertThat(answer.status(0)).isEqualTo(405);
		assertThat(answer.header("Allow")).isEqualTo("POST");
		assertThat(answer.header("Content-Type")).isEqualTo("application/problem+json");
		assertThat(bodyOf(answer)).isEmpty();
	}

	@Test
	void headOfAnExportAnswersItsHeadersWithoutRunningIt() throws IOException {
		Map<String, String> get = assertHeadLikeGet(HealthApi.METRICS + "?user_id=" + this.user, 200,
				"Accept: application/x-ndjson\r\n");
		assertThat(get.get("content-type")).isEqualTo("application/x-ndjson");
		assertThat(get).doesNotContainKey("content-length");
		assertThat(RawHttp
			.send(this.port,
					request("HEAD", HealthApi.METRICS + "?user_id=" + this.user, this.partner.apiKey(),
							"Accept: application/x-ndjson\r\n"),
					5000)
			.status(0)).isEqualTo(200);
		// a read after the HEADs, whose event is written after any of theirs
		String marker = "marker-" + UUID.randomUUID();
		String markerId = (String) new HealthApi(this.client)
			.create(HealthApi.METRICS, this.partner.apiKey(),
					"{\"user_id\": \"" + marker + "\", \"metrics\": {\"weight\": 60}}")
			.get("id");
		assertThat(RawHttp
			.send(this.port, request("GET", HealthApi.METRICS + "/" + markerId, this.partner.apiKey(), ""), 5000)
			.status(0)).isEqualTo(200);
		eventually(Duration.ofSeconds(5), () -> reads(marker), (events) -> !events.isEmpty());
		// the GET export read the record once; the HEADs read nothing
		assertThat(reads(this.user)).containsExactly(1L);
	}

	@Test
	void headOfARecordIsAuditedAsTheReadItReveals() throws IOException {
		Exchange head = RawHttp.send(this.port,
				request("HEAD", HealthApi.METRICS + "/" + this.recordId, this.partner.apiKey(), ""), 5000);
		assertThat(head.status(0)).isEqualTo(200);
		assertThat(eventually(Duration.ofSeconds(5), () -> reads(this.user), (events) -> !events.isEmpty()))
			.containsExactly(1L);
	}

	/**
	 * Sends a {@code GET} then a {@code HEAD} of {@code target} and checks that they have
	 * the same status and headers (but the date, request id and remaining rate limit) and
	 * that the {@code HEAD} has no body; returns the {@code GET}'s headers.
	 */
	private Map<String, String> assertHeadLikeGet(String target, int status, String extra) throws IOException {
		Exchange get = RawHttp.send(this.port, request("GET", target, this.partner.apiKey(), extra), 5000);
		Exchange head = RawHttp.send(this.port, request("HEAD", target, this.partner.apiKey(), extra), 5000);
		Map<String, String> getHeaders = headers(get);
		Map<String, String> headHeaders = headers(head);
		assertThat(getHeaders.get(":status")).as(get.text()).isEqualTo(Integer.toString(status));
		assertThat(bodyOf(get)).isNotEmpty();
		assertThat(comparable(headHeaders)).as(target).isEqualTo(comparable(getHeaders));
		assertThat(bodyOf(head)).as("no body").isEmpty();
		assertThat(head.closed()).isTrue();
		return getHeaders;
	}

	private static Map<String, String> comparable(Map<String, String> headers) {
		Map<String, String> comparable = new LinkedHashMap<>(headers);
		comparable.remove("date");
		comparable.remove("x-request-id");
		comparable.remove("x-ratelimit-remaining");
		comparable.remove("x-ratelimit-reset");
		comparable.remove("ratelimit");
		return comparable;
	}

	private static String request(String method, String target, String apiKey, String extra) {
		return method + " " + target + " HTTP/1.1\r\nHost: localhost\r\n"
				+ ((apiKey != null) ? "x-api-key: " + apiKey + "\r\n" : "") + extra + "Connection: close\r\n\r\n";
	}

	/**
	 * The status (as {@code :status}) and headers of the one answer, names lower case.
	 */
	private static Map<String, String> headers(Exchange answer) {
		assertThat(answer.answers()).as(answer.text()).isOne();
		String head = answer.text().substring(0, answer.text().indexOf("\r\n\r\n"));
		String[] lines = head.split("\r\n");
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put(":status", lines[0].split(" ")[1]);
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			headers.merge(lines[i].substring(0, colon).toLowerCase(), lines[i].substring(colon + 1).trim(),
					(a, b) -> a + ", " + b);
		}
		return headers;
	}

	private static String bodyOf(Exchange answer) {
		return answer.text().substring(answer.text().indexOf("\r\n\r\n") + 4);
	}

	private List<Long> reads(String user) {
		return this.db
			.sql("select record_count from audit_events where partner_id = :p and user_id = :u and action = 'read'")
			.bind("p", UUID.fromString(this.partner.partnerId()))
			.bind("u", user)
			.map((row) -> row.get(0, Long.class))
			.all()
			.collectList()
			.block();
	}

}
