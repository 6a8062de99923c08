package com.healthpartner.api.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.BufferLeaks;
import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that goes away is no fault of the service: a connection closed in the middle
 * of a request body or of an export's stream leaves no {@code ERROR} line in the log
 * (Reactor's dropped errors and the problem handler log it at {@code DEBUG}), and the
 * service goes on answering. Every buffer allocated meanwhile is tracked, so one the
 * service loses on the way is reported as an {@code ERROR} too ({@link BufferLeaks}).
 */
@ExtendWith(OutputCaptureExtension.class)
class ClientAbortsTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Autowired
	private InFlightRequests inFlight;

	@Test
	void aClientClosingInTheMiddleOfABodyLeavesNoError(CapturedOutput output) throws Exception {
		Credentials partner = this.partners.onboard("loadtest");
		BufferLeaks.Watch leaks = BufferLeaks.watch();
		int from = output.getOut().length();
		for (int i = 0; i < 5; i++) {
			try (Socket socket = new Socket("localhost", this.port)) {
				OutputStream out = socket.getOutputStream();
				out.write(
						("POST /api/v1/health/metrics HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
								+ "x-api-key: " + partner.apiKey()
								+ "\r\nContent-Length: 60\r\n\r\n{\"user_id\":\"u1\",")
							.getBytes(StandardCharsets.US_ASCII));
				out.flush();
				Thread.sleep(100);
				socket.setSoLinger(true, 0);
			}
		}
		assertServiceAnswersAndLoggedNoError(partner, leaks, output, from);
	}

	@Test
	void aClientClosingInTheMiddleOfAnExportLeavesNoError(CapturedOutput output) throws Exception {
		Credentials partner = this.partners.onboard("loadtest");
		String user = "member-" + UUID.randomUUID();
		this.db
			.sql("""
					insert into metric_records (id, partner_id, user_id, metrics, recorded_at, created_at, view)
					select *, metric_view(id, user_id, null, null, metrics, api_time(recorded_at), api_time(created_at), api_time(created_at))
					from (select gen_random_uuid() as id, cast(:p as uuid) as partner_id, cast(:u as text) as user_id,
					             '{"weight": 70.5, "steps": 12000}'::jsonb as metrics,
					             now() - make_interval(secs => n) as recorded_at, now() as created_at
					      from generate_series(1, 20000) n) r
					""")
			.bind("p", UUID.fromString(partner.partnerId()))
			.bind("u", user)
			.then()
			.block();
		BufferLeaks.Watch leaks = BufferLeaks.watch();
		int from = output.getOut().length();
		for (int i = 0; i < 3; i++) {
			try (Socket socket = new Socket("localhost", this.port)) {
				socket.setReceiveBufferSize(4096);
				OutputStream out = socket.getOutputStream();
				out.write(("GET /api/v1/health/metrics?user_id=" + user + " HTTP/1.1\r\nHost: localhost\r\n"
						+ "Accept: application/x-ndjson\r\nx-api-key: " + partner.apiKey() + "\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII));
				out.flush();
				InputStream in = socket.getInputStream();
				byte[] some = in.readNBytes(8192);
				assertThat(new String(some, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200");
				socket.setSoLinger(true, 0);
			}
		}
		assertServiceAnswersAndLoggedNoError(partner, leaks, output, from);
	}

	private void assertServiceAnswersAndLoggedNoError(Credentials partner, BufferLeaks.Watch leaks,
			CapturedOutput output, int from) throws InterruptedException {
		// what the service does with the closed connections happens off this thread
		assertThat(Eventually.eventually(Duration.ofSeconds(10), () -> this.inFlight.handling() == 0))
			.as("every handler of a closed connection has ended")
			.isTrue();
		new HealthApi(this.client).get(partner.apiKey(), "/api/v1/auth/me").expectStatus().isOk();
		leaks.end();
		String logged = output.getOut().substring(from);
		assertThat(logged.lines().filter((line) -> line.contains(" ERROR ")))
			.as("ERROR lines after a client went away in:%n%s", logged)
			.isEmpty();
	}

}
