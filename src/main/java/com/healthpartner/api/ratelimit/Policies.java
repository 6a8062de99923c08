package com.healthpartner.api.ratelimit;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

/**
 * The rate-limit policies (docs/api.md, Rate limits), from configuration: one per plan
 * (per minute), and the per-IP {@code anonymous} (per minute) and {@code registration}
 * (per hour).
 */
@Component
class Policies {

	static final Duration MINUTE = Duration.ofMinutes(1);

	static final Duration HOUR = Duration.ofHours(1);

	private static final Log log = LogFactory.getLog(Policies.class);

	private final Map<String, Policy> plans = new LinkedHashMap<>();

	private final Set<String> unknownPlans = ConcurrentHashMap.newKeySet();

	private final Policy anonymous;

	private final Policy registration;

	Policies(Plans plans, RateLimitProperties properties) {
		plans.limits().forEach((name, limit) -> this.plans.put(name, new Policy(name, limit, MINUTE)));
		this.anonymous = new Policy("anonymous", properties.anonymousLimitPerMinute(), MINUTE);
		this.registration = new Policy("registration", properties.registrationLimitPerHour(), HOUR);
	}

	/**
	 * The policy of a partner's plan. A plan that is no longer configured (APP_PLANS
	 * changed after partners got it) falls back to {@code default} rather than to no
	 * limit.
	 */
	Policy plan(String name) {
		Policy plan = this.plans.get(name);
		if (plan == null) {
			if (this.unknownPlans.add(name)) {
				log.warn("Plan '" + name + "' is not configured in APP_PLANS; its partners are limited as 'default'");
			}
			return this.plans.get("default");
		}
		return plan;
	}

	Policy anonymous() {
		return this.anonymous;
	}

	Policy registration() {
		return this.registration;
	}

}
