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

	private static final String API_V1 = "/api/v1/";

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
	 * The part of the service a request of this method and raw path, which begins with
	 * {@code /api/v1/}, is for: what {@link #zone(HttpMethod, PathContainer)} gives for
	 * it parsed, worked out from the text for the HTTP edge's {@code 429} (parsing every
	 * refused path was 2 % of a refusal's work); parsed only when it holds an escape or
	 * matrix parameters.
	 */
	public static Zone zoneUnderApiV1(HttpMethod method, String path) {
		if (!path.startsWith(API_V1)) {
			throw new IllegalArgumentException("not under " + API_V1 + ": " + path);
		}
		if (path.indexOf('%') >= 0 || path.indexOf(';') >= 0) {
			return zone(method, PathContainer.parsePath(path));
		}
		if (!HttpMethod.POST.equals(method) || path.endsWith("/")) {
			return Zone.PARTNER;
		}
		// POST /api/v1/auth, empty segments dropped: only "auth" after the slashes
		int start = API_V1.length();
		while (start < path.length() && path.charAt(start) == '/') {
			start++;
		}
		return (path.length() - start == 4 && path.startsWith("auth", start)) ? Zone.REGISTRATION : Zone.PARTNER;
	}

	/**
	 * The part of the service a request of this method and path (as the routers match it)
	 * is for.
	 */
	public static Zone zone(HttpMethod method, PathContainer path) {
		String first = null;
		String second = null;
		String third = null;
		int segments = 0;
		List<PathContainer.Element> elements = path.elements();
		for (int i = 0; i < elements.size(); i++) {
			if (elements.get(i) instanceof PathContainer.PathSegment segment && !segment.valueToMatch().isEmpty()) {
				String value = segment.valueToMatch();
				switch (segments++) {
					case 0 -> first = value;
					case 1 -> second = value;
					case 2 -> third = value;
					default -> {
					}
				}
			}
		}
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
				&& !path.value().endsWith("/");
		return registration ? Zone.REGISTRATION : Zone.PARTNER;
	}

}
