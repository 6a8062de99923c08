package com.healthpartner.api.problem;

import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.crypto.Ids;

/**
 * The request id of an exchange: the client's own when it is sane, otherwise a generated
 * one.
 */
public final class RequestIds {

	public static final String HEADER = "X-Request-Id";

	private static final String ATTRIBUTE = RequestIds.class.getName() + ".id";

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

	/** The client's id when it is sane, otherwise a new one. */
	public static String chooseFor(String sent) {
		return (sent != null && sane(sent)) ? sent : Ids.unique().toString();
	}

	/** 1 to 128 characters of {@code A-Z a-z 0-9 . _ -}. */
	private static boolean sane(String id) {
		int length = id.length();
		if (length == 0 || length > 128) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = id.charAt(i);
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
					|| c == '-')) {
				return false;
			}
		}
		return true;
	}

	public static String of(ServerWebExchange exchange) {
		String id = exchange.getAttribute(ATTRIBUTE);
		return (id != null) ? id : "unknown";
	}

}
