package com.healthpartner.api.web;

import java.util.List;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.server.ServerWebExchange;

/**
 * Which part of the service a request is for, decided on its path as the routers match
 * it: every segment percent-decoded and without matrix parameters ({@code ;...}), empty
 * segments dropped. Checks that protect a part of the service decide on this, never on
 * the raw path: {@code /admin;x/v1/partners} and {@code /%61dmin/v1/partners} reach the
 * admin routes, so they must meet the admin check. Worked out once per request and kept
 * on the exchange.
 */
public final class RequestPaths {

	private static final String ATTRIBUTE = RequestPaths.class.getName() + ".zone";

	private RequestPaths() {
	}

	/** The parts of the service, by path. */
	public enum Zone {

		/** {@code POST /api/v1/auth}, the one partner route that needs no key. */
		REGISTRATION,

		/** Everything else under {@code /api/v1}: a key, a plan, rate-limit headers. */
		PARTNER,

		/**
		 * Under {@code /api} but not {@code /api/v1}: no route, but the API's answers.
		 */
		OTHER_API,

		/** Under {@code /admin}: the administrator's token. */
		ADMIN,

		/** Documentation, problem pages, probes. */
		PUBLIC;

		/**
		 * Whether answers may hold data and writes happen ({@code /api}, {@code /admin}).
		 */
		public boolean apiOrAdmin() {
			return this != PUBLIC;
		}

		/** Whether answers carry the rate-limit headers ({@code /api/v1}). */
		public boolean partnerApi() {
			return this == REGISTRATION || this == PARTNER;
		}

	}

	public static Zone zone(ServerWebExchange exchange) {
		Zone zone = exchange.getAttribute(ATTRIBUTE);
		if (zone == null) {
			zone = zone(exchange.getRequest().getMethod(), exchange.getRequest().getPath().pathWithinApplication());
			exchange.getAttributes().put(ATTRIBUTE, zone);
		}
		return zone;
	}

	/**
	 * The part of the service a request of this method and raw path is for: what
	 * {@link #zone(HttpMethod, PathContainer)} gives for it parsed, its segments read
	 * from the text for the HTTP edge's {@code 429} (parsing every refused path was 2 %
	 * of a refusal's work); parsed only when it holds an escape or matrix parameters.
	 */
	public static Zone zone(HttpMethod method, String rawPath) {
		if (rawPath.indexOf('%') >= 0 || rawPath.indexOf(';') >= 0) {
			return zone(method, PathContainer.parsePath(rawPath));
		}
		String[] firstThree = new String[3];
		int segments = 0;
		for (int from = 0, end; from < rawPath.length(); from = end + 1) {
			end = rawPath.indexOf('/', from);
			end = (end < 0) ? rawPath.length() : end;
			if (end > from && segments++ < 3) {
				firstThree[segments - 1] = rawPath.substring(from, end);
			}
		}
		return zone(method, firstThree[0], firstThree[1], firstThree[2], segments, rawPath.endsWith("/"));
	}

	/**
	 * The part of the service a request of this method and path (as the routers match it)
	 * is for.
	 */
	public static Zone zone(HttpMethod method, PathContainer path) {
		String[] firstThree = new String[3];
		int segments = 0;
		List<PathContainer.Element> elements = path.elements();
		for (int i = 0; i < elements.size(); i++) {
			if (elements.get(i) instanceof PathContainer.PathSegment segment && !segment.valueToMatch().isEmpty()
					&& segments++ < 3) {
				firstThree[segments - 1] = segment.valueToMatch();
			}
		}
		return zone(method, firstThree[0], firstThree[1], firstThree[2], segments, path.value().endsWith("/"));
	}

	/**
	 * The zone of a path whose non-empty segments are {@code segments} in all, the first
	 * three of them given (null past the last).
	 */
	private static Zone zone(HttpMethod method, String first, String second, String third, int segments,
			boolean trailingSlash) {
		if ("admin".equals(first)) {
			return Zone.ADMIN;
		}
		if (!"api".equals(first)) {
			return Zone.PUBLIC;
		}
		if (!"v1".equals(second)) {
			return Zone.OTHER_API;
		}
		boolean registration = HttpMethod.POST.equals(method) && segments == 3 && "auth".equals(third)
				&& !trailingSlash;
		return registration ? Zone.REGISTRATION : Zone.PARTNER;
	}

}
