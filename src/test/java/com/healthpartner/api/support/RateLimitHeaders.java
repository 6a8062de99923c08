package com.healthpartner.api.support;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rate-limit headers of one answer as a partner reads them, checked for consistency:
 * {@code X-RateLimit-*} agree with the binding entries of {@code RateLimit-Policy} and
 * {@code RateLimit}, and the reset is {@code t} seconds from now.
 */
public record RateLimitHeaders(String policy, int limit, int remaining, long reset, long window, long secondsToReset,
		String policyHeader, String rateLimitHeader) {

	private static final Pattern POLICY_ITEM = Pattern.compile("\"([a-z0-9_-]+)\";q=(\\d+);w=(\\d+)");

	private static final Pattern RATE_LIMIT_ITEM = Pattern.compile("\"([a-z0-9_-]+)\";r=(\\d+);t=(\\d+)");

	/**
	 * Reads the headers of an answer given at {@code now} and checks that they agree.
	 */
	public static RateLimitHeaders of(HttpHeaders headers, Instant now) {
		String limit = headers.getFirst("X-RateLimit-Limit");
		String remaining = headers.getFirst("X-RateLimit-Remaining");
		String reset = headers.getFirst("X-RateLimit-Reset");
		String policyHeader = headers.getFirst("RateLimit-Policy");
		String rateLimitHeader = headers.getFirst("RateLimit");
		assertThat(limit).as("X-RateLimit-Limit").isNotNull();
		assertThat(remaining).as("X-RateLimit-Remaining").isNotNull();
		assertThat(reset).as("X-RateLimit-Reset").isNotNull();
		assertThat(policyHeader).as("RateLimit-Policy").isNotNull();
		assertThat(rateLimitHeader).as("RateLimit").isNotNull();
		int q = Integer.parseInt(limit);
		int r = Integer.parseInt(remaining);
		// the binding policy: the one whose quota and remaining the X- headers show
		Map<String, Long> windows = new HashMap<>();
		Matcher policies = POLICY_ITEM.matcher(policyHeader);
		while (policies.find()) {
			if (Integer.parseInt(policies.group(2)) == q) {
				windows.put(policies.group(1), Long.parseLong(policies.group(3)));
			}
		}
		String name = null;
		long t = -1;
		Matcher rateLimits = RATE_LIMIT_ITEM.matcher(rateLimitHeader);
		while (rateLimits.find()) {
			if (windows.containsKey(rateLimits.group(1)) && Integer.parseInt(rateLimits.group(2)) == r) {
				name = rateLimits.group(1);
				t = Long.parseLong(rateLimits.group(3));
			}
		}
		assertThat(name).as("a policy with q=" + q + " and r=" + r + " in " + policyHeader + " / " + rateLimitHeader)
			.isNotNull();
		long window = windows.get(name);
		assertThat(r).isBetween(0, q);
		assertThat(t).isLessThanOrEqualTo(window + 1);
		long resetAt = Long.parseLong(reset);
		// both are rounded up, and the service read its clock a moment after the test
		// read
		// now (on a loaded machine, a second or two later)
		assertThat(resetAt - t).as("X-RateLimit-Reset minus t is now")
			.isBetween(now.getEpochSecond() - 2, now.getEpochSecond() + 3);
		return new RateLimitHeaders(name, q, r, resetAt, window, t, policyHeader, rateLimitHeader);
	}

	public static void assertAbsent(HttpHeaders headers) {
		assertThat(headers.headerNames()).noneMatch((name) -> name.toLowerCase().contains("ratelimit"));
	}

}
