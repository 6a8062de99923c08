package com.healthpartner.api.ratelimit;

import java.time.Duration;

/**
 * A named limit: at most {@code limit} requests in a fixed window of {@code window}. The
 * name is what partners see in {@code RateLimit-Policy}: a plan's name, or
 * {@code anonymous} / {@code registration}.
 */
public record Policy(String name, int limit, Duration window) {

	/** The policy item of the IETF draft, e.g. {@code "default";q=60;w=60}. */
	String item() {
		return "\"" + this.name + "\";q=" + this.limit + ";w=" + this.window.toSeconds();
	}

	String describe() {
		long seconds = this.window.toSeconds();
		String per = (seconds == 60) ? "minute" : (seconds == 3600) ? "hour" : seconds + " seconds";
		return "'" + this.name + "' (" + this.limit + " requests per " + per + ")";
	}

}
