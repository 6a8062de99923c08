package com.healthpartner.api.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request deadline (2.5 s) is the service's time, not the client's: a body that is
 * still arriving when it passes gets until the read timeout (10 s), and the request is
 * served.
 */
class SlowBodyTest extends IntegrationTest {

	@Test
	void aBodyThatArrivesAfterTheRequestDeadlineButWithinTheReadTimeoutIsServed() throws Exception {
		Credentials partner = this.partners.onboard("loadtest");
		String body = "{\"user_id\": \"slow-body\", \"metrics\": {\"weight\": 70}}";
		int split = 10;
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(15_000);
			OutputStream out = socket.getOutputStream();
			out.write(("POST /api/v1/health/metrics HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
					+ "Connection: close\r\nx-api-key: " + partner.apiKey() + "\r\nContent-Length: "
					+ body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body.substring(0, split))
				.getBytes(StandardCharsets.UTF_8));
			out.flush();
			Thread.sleep(3500);
			out.write(body.substring(split).getBytes(StandardCharsets.UTF_8));
			out.flush();
			String answer = read(socket.getInputStream());
			assertThat(answer).startsWith("HTTP/1.1 201").contains("\"user_id\":\"slow-body\"");
		}
	}

	private static String read(InputStream in) throws IOException {
		ByteArrayOutputStream all = new ByteArrayOutputStream();
		in.transferTo(all);
		return all.toString(StandardCharsets.UTF_8);
	}

}
