package com.healthpartner.api.ratelimit;

import java.util.List;
import java.util.function.BiConsumer;

import io.netty.util.AsciiString;

import org.springframework.http.HttpHeaders;

/**
 * Writes the rate-limit headers (docs/api.md, Rate limits) from the decisions taken for a
 * request. With one policy they describe it; with two (a registration: {@code anonymous}
 * and {@code registration}) {@code RateLimit-Policy} and {@code RateLimit} list both and
 * the {@code X-RateLimit-*} headers describe the binding one: the one that refused,
 * otherwise the one with the fewest requests left. Written into Spring's headers of an
 * exchange, or as names and values for the answer the HTTP edge prepares
 * ({@link EdgeRefusals}); the names are {@link AsciiString}s, which the encoder copies as
 * bytes.
 */
final class RateLimitHeaders {

	static final AsciiString LIMIT = AsciiString.cached("X-RateLimit-Limit");

	static final AsciiString REMAINING = AsciiString.cached("X-RateLimit-Remaining");

	static final AsciiString RESET = AsciiString.cached("X-RateLimit-Reset");

	static final AsciiString POLICY = AsciiString.cached("RateLimit-Policy");

	static final AsciiString RATE_LIMIT = AsciiString.cached("RateLimit");

	private RateLimitHeaders() {
	}

	static void write(HttpHeaders headers, List<Decision> decisions) {
		write((name, value) -> headers.set(name.toString(), value), decisions);
	}

	static void write(BiConsumer<AsciiString, String> headers, List<Decision> decisions) {
		if (decisions.isEmpty()) {
			return;
		}
		Decision binding = binding(decisions);
		headers.accept(LIMIT, binding.policy().limitText());
		headers.accept(REMAINING, Integer.toString(binding.remaining()));
		headers.accept(RESET, Long.toString(binding.resetEpochSeconds()));
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
		headers.accept(POLICY, policies.toString());
		headers.accept(RATE_LIMIT, limits.toString());
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
