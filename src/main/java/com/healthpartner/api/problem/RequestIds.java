package com.healthpartner.api.problem;

import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.web.server.ServerWebExchange;

/**
 * The request id of an exchange: the client's own when it is sane, otherwise a generated
 * one.
 */
public final class RequestIds {

	public static final String HEADER = "X-Request-Id";

	private static final String ATTRIBUTE = RequestIds.class.getName() + ".id";

	private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._-]{1,128}");

	private RequestIds() {
	}

	/**
	 * Gives the exchange its id: the one the client sent in {@code X-Request-Id} when it
	 * is sane, otherwise a new one.
	 */
	public static String assign(ServerWebExchange exchange) {
		String id = chooseFor(exchange.getRequest().getHeaders().getFirst(HEADER));
		exchange.getAttributes().put(ATTRIBUTE, id);
		return id;
	}

	static String chooseFor(String sent) {
		return (sent != null && SANE.matcher(sent).matches()) ? sent : UUID.randomUUID().toString();
	}

	public static String of(ServerWebExchange exchange) {
		String id = exchange.getAttribute(ATTRIBUTE);
		return (id != null) ? id : "unknown";
	}

}
