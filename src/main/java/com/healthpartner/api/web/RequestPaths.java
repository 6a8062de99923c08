package com.healthpartner.api.web;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.server.ServerWebExchange;

/**
 * The path of a request as the routers match it: every segment percent-decoded and
 * without matrix parameters ({@code ;...}), empty segments dropped. Filters that protect
 * a part of the service decide on this path, never on the raw one:
 * {@code /admin;x/v1/partners} and {@code /%61dmin/v1/partners} reach the admin routes,
 * so they must meet the admin check. Worked out once per request and kept on the
 * exchange, for the filters that ask.
 */
public final class RequestPaths {

	private static final String ATTRIBUTE = RequestPaths.class.getName() + ".matched";

	private static final String REGISTRATION = "/api/v1/auth";

	private RequestPaths() {
	}

	public static String matched(ServerWebExchange exchange) {
		String path = exchange.getAttribute(ATTRIBUTE);
		if (path == null) {
			path = matched(exchange.getRequest().getPath().pathWithinApplication());
			exchange.getAttributes().put(ATTRIBUTE, path);
		}
		return path;
	}

	/** Whether the request is {@code prefix} itself or below it ({@code /api/v1}). */
	public static boolean isUnder(ServerWebExchange exchange, String prefix) {
		String path = matched(exchange);
		return path.equals(prefix) || path.startsWith(prefix + "/");
	}

	/**
	 * The partner API or the administrator's: where answers hold data and writes happen.
	 */
	public static boolean isApiOrAdmin(ServerWebExchange exchange) {
		return isUnder(exchange, "/api") || isUnder(exchange, "/admin");
	}

	/** {@code POST /api/v1/auth}, the one partner route that needs no key. */
	public static boolean isRegistration(ServerWebExchange exchange) {
		return HttpMethod.POST.equals(exchange.getRequest().getMethod()) && matched(exchange).equals(REGISTRATION);
	}

	private static String matched(PathContainer rawPath) {
		StringBuilder path = new StringBuilder();
		for (PathContainer.Element element : rawPath.elements()) {
			if (element instanceof PathContainer.PathSegment segment && !segment.valueToMatch().isEmpty()) {
				path.append('/').append(segment.valueToMatch());
			}
		}
		if (path.isEmpty() || rawPath.value().endsWith("/")) {
			path.append('/');
		}
		return path.toString();
	}

}
