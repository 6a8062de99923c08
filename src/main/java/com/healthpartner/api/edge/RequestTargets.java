package com.healthpartner.api.edge;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Request targets as the web layer will read them: a target it cannot read as a URI (a
 * {@code %} without two hexadecimal digits, a character the URI syntax does not allow) is
 * refused at the edge instead of getting the web layer's bare {@code 400}.
 */
final class RequestTargets {

	private RequestTargets() {
	}

	/**
	 * Whether the target is a URI. The common target holds only characters that are
	 * plainly allowed and is checked in one pass; any other character is left to
	 * {@link URI}, which is what the web layer uses.
	 */
	static boolean valid(String target) {
		int length = target.length();
		for (int i = 0; i < length; i++) {
			char c = target.charAt(i);
			if (c == '%') {
				if (i + 2 >= length || !hex(target.charAt(i + 1)) || !hex(target.charAt(i + 2))) {
					return false;
				}
				i += 2;
			}
			else if (!plain(c)) {
				return parses(target);
			}
		}
		return true;
	}

	/**
	 * The path of a refused request's target as the answer's {@code instance}: the path
	 * when it is a valid one within the limit; otherwise {@code /api/v1} for a path under
	 * it (so the answer still carries the API's rate-limit headers), or {@code /}.
	 */
	static String pathFor(String target, int maxLength) {
		int end = target.length();
		for (int i = 0; i < end; i++) {
			char c = target.charAt(i);
			if (c == '?' || c == '#') {
				end = i;
			}
		}
		String path = target.substring(0, end);
		if (path.startsWith("/") && path.length() <= maxLength && valid(path)) {
			return path;
		}
		return (path.startsWith("/api/v1/") || path.equals("/api/v1")) ? "/api/v1" : "/";
	}

	private static boolean hex(char c) {
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	}

	/**
	 * Characters of RFC 3986 that {@link URI} takes anywhere in a path or query.
	 */
	private static boolean plain(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
				|| "-._~:/?@!$&'()*+,;=".indexOf(c) >= 0;
	}

	private static boolean parses(String target) {
		try {
			new URI(target);
			return true;
		}
		catch (URISyntaxException ex) {
			return false;
		}
	}

}
