package com.healthpartner.api.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * An NDJSON export whose client reads the answer's head and then stops reading, keeping
 * its connection open: a slow or stuck partner. Its socket's receive buffer is small, so
 * the service cannot push a large export into it and has to wait.
 */
public final class StalledExport implements AutoCloseable {

	private static final byte[] LAST_CHUNK = "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	private final Socket socket;

	private final String head;

	private StalledExport(Socket socket, String head) {
		this.socket = socket;
		this.head = head;
	}

	/** Sends {@code GET pathAndQuery} asking for NDJSON and reads the answer's head. */
	public static StalledExport open(int port, String apiKey, String pathAndQuery) throws IOException {
		Socket socket = new Socket();
		socket.setReceiveBufferSize(4096);
		socket.connect(new InetSocketAddress("localhost", port), 5_000);
		socket.setSoTimeout(15_000);
		String request = "GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\nx-api-key: " + apiKey
				+ "\r\nAccept: application/x-ndjson\r\n\r\n";
		socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
		socket.getOutputStream().flush();
		InputStream in = socket.getInputStream();
		StringBuilder head = new StringBuilder();
		while (head.indexOf("\r\n\r\n") < 0) {
			int b = in.read();
			if (b < 0) {
				socket.close();
				throw new IOException("connection closed after: " + head);
			}
			head.append((char) b);
		}
		return new StalledExport(socket, head.toString());
	}

	/** The status line and headers. */
	public String head() {
		return this.head;
	}

	/**
	 * Reads the rest of the answer; true when it ended with HTTP's last chunk (a complete
	 * export), false when the service closed the connection before (an incomplete one).
	 */
	public boolean readRestIsComplete() throws IOException {
		InputStream in = this.socket.getInputStream();
		ByteArrayOutputStream tail = new ByteArrayOutputStream();
		byte[] buffer = new byte[64 * 1024];
		int read;
		while ((read = in.read(buffer)) >= 0) {
			tail.write(buffer, 0, read);
			if (endsWithLastChunk(tail.toByteArray())) {
				return true;
			}
			if (tail.size() > LAST_CHUNK.length) {
				byte[] end = tail.toByteArray();
				tail.reset();
				tail.write(end, end.length - LAST_CHUNK.length, LAST_CHUNK.length);
			}
		}
		return false;
	}

	private static boolean endsWithLastChunk(byte[] bytes) {
		if (bytes.length < LAST_CHUNK.length) {
			return false;
		}
		for (int i = 0; i < LAST_CHUNK.length; i++) {
			if (bytes[bytes.length - LAST_CHUNK.length + i] != LAST_CHUNK[i]) {
				return false;
			}
		}
		return true;
	}

	/** The client goes away: the connection is closed with the export unread. */
	public void disconnect() throws IOException {
		this.socket.close();
	}

	@Override
	public void close() throws IOException {
		disconnect();
	}

}
