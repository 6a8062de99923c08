package com.healthpartner.api.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.http.HttpHeaders;

/**
 * A client that writes bytes to the service as they are, for requests no HTTP client
 * library would send: everything the server sends back is read until it closes the
 * connection or stays silent for {@code silence} milliseconds.
 */
public final class RawHttp {

	/**
	 * A status line where an answer begins: at the start or right after another's body.
	 */
	private static final Pattern STATUS_LINE = Pattern.compile("(?:^|(?<=[}>\\n]))HTTP/1\\.1 (\\d{3}) ");

	private RawHttp() {
	}

	/** What came back: the bytes as text, whether the server closed, and when. */
	public record Exchange(String text, boolean closed, long millis) {

		/** The status code of the {@code n}th answer (0 based). */
		public int status(int n) {
			Matcher answers = STATUS_LINE.matcher(this.text);
			for (int i = 0; i <= n; i++) {
				if (!answers.find()) {
					throw new AssertionError("fewer than " + (n + 1) + " answers in: " + this.text);
				}
			}
			return Integer.parseInt(answers.group(1));
		}

		/** How many answers came back. */
		public int answers() {
			return (int) STATUS_LINE.matcher(this.text).results().count();
		}

		/** The value of a header of the first answer, or null. */
		public String header(String name) {
			int end = this.text.indexOf("\r\n\r\n");
			for (String line : this.text.substring(0, Math.max(end, 0)).split("\r\n")) {
				int colon = line.indexOf(':');
				if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
					return line.substring(colon + 1).trim();
				}
			}
			return null;
		}

		/**
		 * The first answer as the contract checks see it, for a request of {@code method}
		 * on {@code path}.
		 */
		public ObservedResponse observed(String method, String path) {
			int end = this.text.indexOf("\r\n\r\n");
			HttpHeaders headers = new HttpHeaders();
			String[] lines = this.text.substring(0, Math.max(end, 0)).split("\r\n");
			for (int i = 1; i < lines.length; i++) {
				int colon = lines[i].indexOf(':');
				if (colon > 0) {
					headers.add(lines[i].substring(0, colon), lines[i].substring(colon + 1).trim());
				}
			}
			return new ObservedResponse(method, path, status(0), headers, body().getBytes(StandardCharsets.UTF_8));
		}

		/** The body of the first answer. */
		public String body() {
			int end = this.text.indexOf("\r\n\r\n");
			String length = header("Content-Length");
			String rest = this.text.substring(end + 4);
			return (length != null) ? rest.substring(0, Integer.parseInt(length)) : rest;
		}

	}

	public static Exchange send(int port, String request, int silence) throws IOException {
		return send(port, request.getBytes(StandardCharsets.ISO_8859_1), silence);
	}

	public static Exchange send(int port, byte[] request, int silence) throws IOException {
		return inTurns(port, List.of(new String(request, StandardCharsets.ISO_8859_1)), silence);
	}

	/**
	 * Sends each of {@code requests} on one connection once the server has been silent
	 * for {@code silence} ms after the one before (so each arrives on its own, after the
	 * answers to those before it), and returns all that came back.
	 */
	public static Exchange inTurns(int port, List<String> requests, int silence) throws IOException {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(silence);
			long start = System.nanoTime();
			ByteArrayOutputStream received = new ByteArrayOutputStream();
			InputStream in = socket.getInputStream();
			boolean closed = false;
			byte[] buffer = new byte[8192];
			for (int turn = 0; turn < requests.size() && !closed; turn++) {
				socket.getOutputStream().write(requests.get(turn).getBytes(StandardCharsets.ISO_8859_1));
				socket.getOutputStream().flush();
				try {
					for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
						received.write(buffer, 0, n);
					}
					closed = true;
				}
				catch (SocketTimeoutException ex) {
					closed = false;
				}
			}
			return new Exchange(received.toString(StandardCharsets.ISO_8859_1), closed,
					(System.nanoTime() - start) / 1_000_000);
		}
	}

}
