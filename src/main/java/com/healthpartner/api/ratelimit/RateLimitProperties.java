package com.healthpartner.api.ratelimit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Plans and per-IP limits. {@code APP_PLANS} is {@code name=requests per minute},
 * comma-separated; {@code APP_TRUSTED_PROXIES} lists the proxies (addresses or CIDR
 * ranges) whose {@code X-Forwarded-For} names the client.
 */
@ConfigurationProperties("app")
public record RateLimitProperties(@DefaultValue("default=60,enterprise=300") String plans,
		@DefaultValue("60") int anonymousLimitPerMinute, @DefaultValue("10") int registrationLimitPerHour,
		@DefaultValue("local") String rateLimitStore, @DefaultValue("") String trustedProxies) {

	private static final Pattern PLAN_NAME = Pattern.compile("[a-z][a-z0-9_-]{0,31}");

	public RateLimitProperties {
		parse(plans);
		if (anonymousLimitPerMinute < 1) {
			throw new IllegalArgumentException("APP_ANONYMOUS_LIMIT_PER_MINUTE must be a positive number");
		}
		if (registrationLimitPerHour < 1) {
			throw new IllegalArgumentException("APP_REGISTRATION_LIMIT_PER_HOUR must be a positive number");
		}
		if (!"local".equals(rateLimitStore) && !"redis".equals(rateLimitStore)) {
			throw new IllegalArgumentException(
					"APP_RATE_LIMIT_STORE must be local or redis (was " + rateLimitStore + ")");
		}
		try {
			AddressRange.parseList(trustedProxies);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(
					"APP_TRUSTED_PROXIES must list IP addresses or CIDR ranges, comma-separated: " + ex.getMessage());
		}
	}

	/** Plan name to requests per minute, in the order configured. */
	Map<String, Integer> planLimits() {
		return parse(this.plans);
	}

	private static Map<String, Integer> parse(String plans) {
		Map<String, Integer> limits = new LinkedHashMap<>();
		if (plans == null || plans.isBlank()) {
			throw new IllegalArgumentException("APP_PLANS must list at least one plan, e.g. default=60,enterprise=300");
		}
		for (String entry : plans.split(",")) {
			String[] parts = entry.trim().split("=");
			if (parts.length != 2 || !PLAN_NAME.matcher(parts[0].trim()).matches()) {
				throw new IllegalArgumentException(
						"APP_PLANS entry '" + entry.trim() + "' must be name=requests per minute");
			}
			int limit;
			try {
				limit = Integer.parseInt(parts[1].trim());
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException(
						"APP_PLANS entry '" + entry.trim() + "' needs a whole number of requests per minute");
			}
			if (limit < 1) {
				throw new IllegalArgumentException(
						"APP_PLANS entry '" + entry.trim() + "' must allow at least 1 request per minute");
			}
			limits.put(parts[0].trim(), limit);
		}
		if (!limits.containsKey("default")) {
			throw new IllegalArgumentException("APP_PLANS must define the plan 'default'");
		}
		return Collections.unmodifiableMap(limits);
	}

}
