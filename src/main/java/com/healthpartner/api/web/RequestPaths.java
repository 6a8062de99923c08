package com.healthpartner.api.web;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The path of a request as the routers match it: every segment percent-decoded and
 * without matrix parameters ({@code ;...}), empty segments dropped. Filters that protect
 * a part of the service decide on this path, never on the raw one:
 * {@code /admin;x/v1/partners} and {@code /%61dmin/v1/partners} reach the admin routes,
 * so they must meet the admin check.
 */
public final class RequestPaths {

	private RequestPaths() {
	}

	public static String matched(ServerHttpRequest request) {
		StringBuilder path = new StringBuilder();
		for (PathContainer.Element element : request.getPath().pathWithinApplication().elements()) {
			if (element instanceof PathContainer.PathSegment segment && !segment.valueToMatch().isEmpty()) {
				path.append('/').append(segment.valueToMatch());
			}
		}
		String raw = request.getPath().pathWithinApplication().value();
		if (path.isEmpty() || raw.endsWith("/")) {
			path.append('/');
		}
		return path.toString();
	}

	/** Whether the request is {@code prefix} itself or below it ({@code /api/v1}). */
	public static boolean isUnder(ServerHttpRequest request, String prefix) {
		String path = matched(request);
		return path.equals(prefix) || path.startsWith(prefix + "/");
	}

}
