package com.healthpartner.api.edge;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.BufferLeaks;
import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.ObservedResponse;
import com.healthpartner.api.support.OpenApiContract;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.RawHttp;
import com.healthpartner.api.support.RawHttp.Exchange;
import com.healthpartner.api.support.ServiceInstance;
import com.healthpartner.api.web.InFlightRequests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that stops sending mid-request gets {@code 408 request_timeout} and a closed
 * connection, never a database problem, and no ERROR in the log (not even a lost buffer,
 * {@link BufferLeaks}); an idle connection is closed without a word. An instance of its
 * own with a 1 s read timeout and a 2 s idle timeout (10 s and 60 s by default).
 */
@ExtendWith(OutputCaptureExtension.class)
class EdgeTimeoutsTest extends IntegrationTest {

	private static ServiceInstance instance;

	private static int instancePort;

	@BeforeAll
	static void startInstanceWithShortTimeouts() {
		instance = ServiceInstance.start(Map.of("app.http.request-read-timeout", "1s", "app.http.idle-timeout", "2s"));
		instancePort = Integer.parseInt(instance.context().getEnvironment().getProperty("local.server.port"));
	}

	@AfterAll
	static void stopInstance() {
		instance.close();
	}

	@Test
	void aHeadThatStopsHalfwayGetsA408AndTheConnectionCloses() throws IOException {
		Exchange answer = RawHttp.send(instancePort, "GET /api/v1/auth/me HTTP/1.1\r\nHost: localhost\r\nX-Fo", 8000);
		assertTimedOut(answer);
	}

	@Test
	void aBodyThatStopsHalfwayGetsA408NotA503(CapturedOutput output) throws Exception {
		Credentials partner = this.partners.onboard("loadtest");
		BufferLeaks.Watch leaks = BufferLeaks.watch();
		int from = output.getOut().length();
		Exchange answer = RawHttp.send(instancePort,
				"POST /api/v1/health/metrics HTTP/1.1\r\nHost: localhost\r\n"
						+ "Content-Type: application/json\r\nx-api-key: " + partner.apiKey()
						+ "\r\nContent-Length: 60\r\n\r\n{\"user_id\":\"u1\",",
				8000);
		assertTimedOut(answer);
		assertThat(answer.body()).contains("\"instance\":\"/api/v1/health/metrics\"").doesNotContain("database");
		ObservedResponse observed = answer.observed("POST", "/api/v1/health/metrics");
		List<String> violations = OpenApiContract.shared().violations(observed);
		assertThat(violations).as(OpenApiContract.describe(observed, violations)).isEmpty();
		// the handler waiting for the body is cut off with the connection: not a fault
		InFlightRequests inFlight = instance.context().getBean(InFlightRequests.class);
		assertThat(Eventually.eventually(Duration.ofSeconds(10), () -> inFlight.handling() == 0))
			.as("the handler that waited for the body has ended")
			.isTrue();
		leaks.end();
		String logged = output.getOut().substring(from);
		assertThat(logged.lines().filter((line) -> line.contains(" ERROR "))).as("ERROR lines in:%n%s", logged)
			.isEmpty();
	}

	@Test
	void aBodyThatStopsHalfwayAskingForNdjsonGetsA408Too() throws IOException {
		Credentials partner = this.partners.onboard("loadtest");
		Exchange answer = RawHttp.send(instancePort,
				"POST /api/v1/health/metrics HTTP/1.1\r\nHost: localhost\r\n"
						+ "Accept: application/x-ndjson\r\nContent-Type: application/json\r\nx-api-key: "
						+ partner.apiKey() + "\r\nContent-Length: 60\r\n\r\n{\"user_id\":\"u1\",",
				8000);
		assertTimedOut(answer);
	}

	@Test
	void aRefusedRequestWhoseBodyStopsHalfwayIsAnsweredThenClosedAtTheReadTimeout() throws IOException {
		Credentials partner = this.partners.onboard("default");
		WebTestClient client = WebTestClient.bindToServer().baseUrl("http://localhost:" + instancePort).build();
		for (int i = 0; i < 60; i++) {
			// the body read (and let go) like every answer's, not left to Netty's leak
			// detector
			client.get()
				.uri("/api/v1/auth/me")
				.header("x-api-key", partner.apiKey())
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody(Void.class);
		}
		Exchange answer = RawHttp.send(instancePort,
				"POST /api/v1/health/metrics HTTP/1.1\r\nHost: localhost\r\n"
						+ "Content-Type: application/json\r\nx-api-key: " + partner.apiKey()
						+ "\r\nContent-Length: 60\r\n\r\n{\"user_id\":\"u1\",",
				8000);
		assertThat(answer.answers()).as(answer.text()).isOne();
		assertThat(answer.status(0)).isEqualTo(429);
		assertThat(answer.closed()).as("the connection is closed once the rest of the body is overdue").isTrue();
		assertThat(answer.millis()).isLessThan(6000);
	}

	@Test
	void anImportUploadMayTakeLongerThanTheReadTimeoutButNotStopForIt() throws IOException {
		Credentials partner = this.partners.onboard("loadtest");
		String line = "{\"user_id\":\"u1\",\"metrics\":{\"weight\":70}}\n";
		List<String> parts = new java.util.ArrayList<>();
		parts.add("POST /api/v1/health/imports?kind=metrics HTTP/1.1\r\nHost: localhost\r\n"
				+ "Content-Type: application/x-ndjson\r\nx-api-key: " + partner.apiKey() + "\r\nContent-Length: "
				+ 8 * line.length() + "\r\n\r\n");
		for (int i = 0; i < 8; i++) {
			parts.add(line);
		}
		// a part every 400 ms: 3.2 s in all, more than three read timeouts
		Exchange slow = RawHttp.inTurns(instancePort, parts, 400);
		assertThat(slow.status(0)).as(slow.text()).isEqualTo(202);
		assertThat(slow.body()).contains("\"lines\":8");
		assertThat(slow.millis()).isGreaterThan(3000);

		// an upload that stops for the read timeout: 408, and no import is left
		Exchange stopped = RawHttp.send(instancePort,
				"POST /api/v1/health/imports?kind=metrics HTTP/1.1\r\nHost: localhost\r\n"
						+ "Content-Type: application/x-ndjson\r\nx-api-key: " + partner.apiKey()
						+ "\r\nContent-Length: 1000\r\n\r\n" + line,
				8000);
		assertTimedOut(stopped);
		assertThat(stopped.body()).contains("no byte of it arrived for 1 s");
		assertThat(Eventually.eventually(Duration.ofSeconds(10),
				() -> instance.context()
					.getBean(org.springframework.r2dbc.core.DatabaseClient.class)
					.sql("select count(*) from imports where partner_id = cast(:p as uuid)")
					.bind("p", partner.partnerId())
					.map((row) -> row.get(0, Long.class))
					.one()
					.block(),
				(count) -> count == 1))
			.as("only the slow upload's import")
			.isOne();
	}

	@Test
	void anIdleKeptAliveConnectionIsClosedSilently() throws IOException {
		try (Socket socket = new Socket("localhost", instancePort)) {
			socket.setSoTimeout(8000);
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			out.write(
					"GET /problems/not_found HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			byte[] buffer = new byte[65536];
			int answered = in.read(buffer);
			assertThat(new String(buffer, 0, answered, StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200");
			long idleFrom = System.nanoTime();
			int more;
			try {
				more = in.read(buffer);
			}
			catch (SocketTimeoutException ex) {
				throw new AssertionError("the idle connection was not closed", ex);
			}
			assertThat(more).as("nothing is said, the connection is closed").isEqualTo(-1);
			assertThat((System.nanoTime() - idleFrom) / 1_000_000).isBetween(1500L, 7000L);
		}
	}

	private static void assertTimedOut(Exchange answer) {
		assertThat(answer.status(0)).as(answer.text()).isEqualTo(408);
		assertThat(answer.header("Content-Type")).isEqualTo("application/problem+json");
		assertThat(answer.header("Connection")).isEqualToIgnoringCase("close");
		assertThat(answer.header("X-Request-Id")).isNotBlank();
		assertThat(answer.body()).contains("\"code\":\"request_timeout\"");
		assertThat(answer.closed()).isTrue();
		assertThat(answer.millis()).isLessThan(6000);
	}

}
