package com.healthpartner.api.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * A named limit: at most {@code limit} requests in a fixed window of {@code window}. The
 * name is what partners see in {@code RateLimit-Policy}: a plan's name, or
 * {@code anonymous} / {@code registration}. What a header or a refusal says of it is
 * written once, when the policy is made.
 */
public final class Policy {

	private final String name;

	private final int limit;

	private final Duration window;

	private final String item;

	private final String limitText;

	private final String described;

	/**
	 * Its hash, made once: every decision is counted in a map keyed by its policy, and
	 * {@code Objects.hash} boxed and hashed the fields each time (0.2 % of a refusal's
	 * CPU, docs/performance.md).
	 */
	private final int hash;

	public Policy(String name, int limit, Duration window) {
		this.name = name;
		this.limit = limit;
		this.window = window;
		this.item = "\"" + name + "\";q=" + limit + ";w=" + window.toSeconds();
		this.limitText = String.valueOf(limit);
		long seconds = window.toSeconds();
		String per = (seconds == 60) ? "minute" : (seconds == 3600) ? "hour" : seconds + " seconds";
		this.described = "'" + name + "' (" + limit + " requests per " + per + ")";
		this.hash = Objects.hash(name, limit, window);
	}

	public String name() {
		return this.name;
	}

	public int limit() {
		return this.limit;
	}

	public Duration window() {
		return this.window;
	}

	/** The policy item of the IETF draft, e.g. {@code "default";q=60;w=60}. */
	String item() {
		return this.item;
	}

	String limitText() {
		return this.limitText;
	}

	String describe() {
		return this.described;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Policy policy && policy.name.equals(this.name) && policy.limit == this.limit
				&& policy.window.equals(this.window);
	}

	@Override
	public int hashCode() {
		return this.hash;
	}

	@Override
	public String toString() {
		return this.item;
	}

}
