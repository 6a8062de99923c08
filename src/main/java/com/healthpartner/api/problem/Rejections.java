package com.healthpartner.api.problem;

import java.util.EnumMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * Counts refused requests by reason ({@code api_rejections_total{reason, code}} in
 * Prometheus), so that an operator sees a wave of bad keys, missing scopes, throttling or
 * bad input without reading logs. Every reason's counter exists from the start, at zero.
 */
@Component
class Rejections {

	private final Map<ProblemType, Counter> counters = new EnumMap<>(ProblemType.class);

	Rejections(MeterRegistry registry) {
		for (ProblemType type : ProblemType.values()) {
			String reason = reason(type);
			if (reason != null) {
				this.counters.put(type,
						Counter.builder("api.rejections")
							.description("Requests refused with a 4xx problem, by reason and problem code")
							.tag("reason", reason)
							.tag("code", type.code())
							.register(registry));
			}
		}
	}

	void count(ProblemType type) {
		Counter counter = this.counters.get(type);
		if (counter != null) {
			counter.increment();
		}
	}

	/**
	 * The reason an operator groups by; null for answers that are not a refusal (5xx).
	 */
	static String reason(ProblemType type) {
		return switch (type) {
			case MISSING_API_KEY, INVALID_API_KEY, INVALID_SIGNATURE, INVALID_ADMIN_TOKEN, PARTNER_SUSPENDED -> "auth";
			case INSUFFICIENT_SCOPE -> "scope";
			case RATE_LIMITED, TOO_MANY_IMPORTS -> "rate_limit";
			case VALIDATION_FAILED, MALFORMED_JSON, INVALID_DATE_RANGE, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE,
					NOT_ACCEPTABLE ->
				"validation";
			case NOT_FOUND, METHOD_NOT_ALLOWED, CURSOR_EXPIRED -> "not_found";
			case CONFLICT, REGISTRATION_EXISTS, WEBHOOK_LIMIT, IDEMPOTENCY_IN_PROGRESS, IDEMPOTENCY_KEY_REUSED ->
				"conflict";
			case REQUEST_TIMEOUT, URI_TOO_LONG, REQUEST_HEADER_FIELDS_TOO_LARGE -> "http";
			case INTERNAL_ERROR, SERVICE_UNAVAILABLE -> null;
		};
	}

}
