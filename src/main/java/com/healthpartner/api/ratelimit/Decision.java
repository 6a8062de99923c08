package com.healthpartner.api.ratelimit;

/**
 * The answer of a limiter for one request: allowed or not, what is left in the window,
 * and when the window ends (epoch milliseconds, as seen at {@code decidedAt}).
 */
public record Decision(Policy policy, boolean allowed, int remaining, long resetAtMillis, long decidedAtMillis) {

	/** {@code X-RateLimit-Reset}: epoch seconds of the window's end, rounded up. */
	long resetEpochSeconds() {
		return Math.floorDiv(this.resetAtMillis + 999, 1000);
	}

	/**
	 * {@code t} of {@code RateLimit} and {@code Retry-After}: the seconds until the
	 * window ends, rounded up so that a client waiting that long is never early.
	 */
	long secondsToReset() {
		return Math.max(0, Math.floorDiv(this.resetAtMillis - this.decidedAtMillis + 999, 1000));
	}

}
