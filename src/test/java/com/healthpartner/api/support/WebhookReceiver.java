package com.healthpartner.api.support;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.ToIntFunction;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An endpoint that receives webhooks, on 127.0.0.1 only: it keeps every request it gets
 * (headers, body, when) and answers what {@link #answer} says for it (204 by default).
 */
public final class WebhookReceiver implements AutoCloseable {

	private final HttpServer server;

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private volatile ToIntFunction<Received> answer = (request) -> 204;

	public WebhookReceiver() {
		try {
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		this.server.setExecutor(Executors.newFixedThreadPool(8));
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	/** The URL messages are sent to. */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/hooks";
	}

	/** What to answer each request from now on (its status). */
	public void answer(ToIntFunction<Received> answer) {
		this.answer = answer;
	}

	/** Every request received so far, in order of arrival. */
	public List<Received> received() {
		return new ArrayList<>(this.received);
	}

	private void handle(HttpExchange exchange) throws IOException {
		byte[] body;
		try (InputStream in = exchange.getRequestBody()) {
			body = in.readAllBytes();
		}
		Map<String, String> headers = new TreeMap<>();
		exchange.getRequestHeaders()
			.forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), String.join(",", values)));
		Received request = new Received(exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers,
				new String(body, StandardCharsets.UTF_8), Instant.now());
		int status;
		try {
			status = this.answer.applyAsInt(request);
		}
		finally {
			this.received.add(request);
		}
		exchange.sendResponseHeaders(status, -1);
		exchange.close();
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/** One request as the receiver got it; header names in lower case. */
	public record Received(String method, String uri, Map<String, String> headers, String body, Instant at) {

		public String header(String name) {
			return this.headers.get(name);
		}

	}

}
