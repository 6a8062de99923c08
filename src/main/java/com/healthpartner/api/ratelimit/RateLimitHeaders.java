package com.healthpartner.api.ratelimit;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

import org.springframework.http.HttpHeaders;

/**
 * Writes the headers of contract section 5 from the decisions taken for a request. With
 * one policy they describe it; with two (a registration: {@code anonymous} and
 * {@code registration}) {@code RateLimit-Policy} and {@code RateLimit} list both and the
 * {@code X-RateLimit-*} headers describe the binding one: the one that refused, otherwise
 * the one with the fewest requests left.
 */
final class RateLimitHeaders {

	static final String LIMIT = "X-RateLimit-Limit";

	static final String REMAINING = "X-RateLimit-Remaining";

	static final String RESET = "X-RateLimit-Reset";

	static final String POLICY = "RateLimit-Policy";

	static final String RATE_LIMIT = "RateLimit";

	private static final Comparator<Decision> TIGHTEST = Comparator.comparing(Decision::allowed)
		.thenComparingInt(Decision::remaining)
		.thenComparing(Comparator.comparingLong(Decision::resetAtMillis).reversed());

	private RateLimitHeaders() {
	}

	static void write(HttpHeaders headers, List<Decision> decisions) {
		if (decisions.isEmpty()) {
			return;
		}
		Decision binding = binding(decisions);
		headers.set(LIMIT, String.valueOf(binding.policy().limit()));
		headers.set(REMAINING, String.valueOf(binding.remaining()));
		headers.set(RESET, String.valueOf(binding.resetEpochSeconds()));
		headers.set(POLICY, decisions.stream().map((d) -> d.policy().item()).collect(Collectors.joining(", ")));
		headers.set(RATE_LIMIT,
				decisions.stream()
					.map((d) -> "\"" + d.policy().name() + "\";r=" + d.remaining() + ";t=" + d.secondsToReset())
					.collect(Collectors.joining(", ")));
	}

	static Decision binding(List<Decision> decisions) {
		return decisions.stream().min(TIGHTEST).orElseThrow();
	}

}
