package com.healthpartner.api.ratelimit;

import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

/**
 * The one place that knows the plans ({@code APP_PLANS}): their names, for the
 * administrator's choices, and their limits, for the rate limits.
 */
@Component
public class Plans {

	private final Map<String, Integer> limits;

	Plans(RateLimitProperties properties) {
		this.limits = properties.planLimits();
	}

	public boolean exists(String name) {
		return this.limits.containsKey(name);
	}

	/** The plan names, in the order configured. */
	public Set<String> names() {
		return this.limits.keySet();
	}

	/** Requests per minute of a configured plan. */
	Map<String, Integer> limits() {
		return this.limits;
	}

}
