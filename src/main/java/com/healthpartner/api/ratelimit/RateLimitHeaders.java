package com.healthpartner.api.ratelimit;

import java.util.List;

import org.springframework.http.HttpHeaders;

/**
 * Writes the rate-limit headers (docs/api.md, Rate limits) from the decisions taken for a
 * request. With one policy they describe it; with two (a registration: {@code anonymous}
 * and {@code registration}) {@code RateLimit-Policy} and {@code RateLimit} list both and
 * the {@code X-RateLimit-*} headers describe the binding one: the one that refused,
 * otherwise the one with the fewest requests left.
 */
final class RateLimitHeaders {

	static final String LIMIT = "X-RateLimit-Limit";

	static final String REMAINING = "X-RateLimit-Remaining";

	static final String RESET = "X-RateLimit-Reset";

	static final String POLICY = "RateLimit-Policy";

	static final String RATE_LIMIT = "RateLimit";

	private RateLimitHeaders() {
	}

	static void write(HttpHeaders headers, List<Decision> decisions) {
		if (decisions.isEmpty()) {
			return;
		}
		Decision binding = binding(decisions);
		headers.set(LIMIT, binding.policy().limitText());
		headers.set(REMAINING, Integer.toString(binding.remaining()));
		headers.set(RESET, Long.toString(binding.resetEpochSeconds()));
		StringBuilder policies = new StringBuilder(40);
		StringBuilder limits = new StringBuilder(40);
		for (int i = 0; i < decisions.size(); i++) {
			Decision decision = decisions.get(i);
			if (i > 0) {
				policies.append(", ");
				limits.append(", ");
			}
			policies.append(decision.policy().item());
			limits.append('"')
				.append(decision.policy().name())
				.append("\";r=")
				.append(decision.remaining())
				.append(";t=")
				.append(decision.secondsToReset());
		}
		headers.set(POLICY, policies.toString());
		headers.set(RATE_LIMIT, limits.toString());
	}

	/** The refusing decision, otherwise the one with the fewest requests left. */
	static Decision binding(List<Decision> decisions) {
		Decision binding = decisions.get(0);
		for (int i = 1; i < decisions.size(); i++) {
			Decision decision = decisions.get(i);
			if (tighter(decision, binding)) {
				binding = decision;
			}
		}
		return binding;
	}

	private static boolean tighter(Decision candidate, Decision current) {
		if (candidate.allowed() != current.allowed()) {
			return !candidate.allowed();
		}
		if (candidate.remaining() != current.remaining()) {
			return candidate.remaining() < current.remaining();
		}
		return candidate.resetAtMillis() > current.resetAtMillis();
	}

}
