package com.healthpartner.api.web;

import org.springframework.core.Ordered;

/**
 * The order of every {@code WebFilter}, stated once. On {@code /api/v1} the contract
 * orders the checks (section 3): 1. the key is present and valid ({@code 401}), 2. the
 * partner is active ({@code 403}), 3. the rate limit ({@code 429}), 4. the signature
 * ({@code 401}), 5. the route's scope ({@code 403}, declared in the routers), 6. the
 * request itself ({@code 400}, {@code 404}, ...). Around them, the filters every answer
 * needs: the request id and access log first, so that even a refusal carries the id; the
 * per-address limit and its headers outside the key check, because it counts the requests
 * that fail it; the deadline inside that, so that its {@code 503} carries the rate-limit
 * headers too; the shutdown drain last, right before the handler. A filter states its
 * place by naming one of these.
 */
public final class FilterOrder {

	/**
	 * Gives every request its id, {@code Cache-Control: no-store} where answers hold
	 * data, and records its access log line and latency when it ends.
	 */
	public static final int EDGE = Ordered.HIGHEST_PRECEDENCE;

	/** The administrator's bearer token on {@code /admin}. */
	public static final int ADMIN_TOKEN = EDGE + 10;

	/**
	 * The per-address policies ({@code anonymous}, {@code registration}) and the
	 * rate-limit headers of every {@code /api/v1} answer.
	 */
	public static final int CLIENT_LIMIT = EDGE + 15;

	/**
	 * A deadline on every answer but exports: a database that stops answering is a 503.
	 */
	public static final int DEADLINE = EDGE + 17;

	/** Checks 1 and 2: the key, then the partner's status. */
	public static final int API_KEY = EDGE + 20;

	/** Check 3: the partner's plan. */
	public static final int PARTNER_LIMIT = EDGE + 30;

	/** Check 4: the signature. */
	public static final int SIGNATURE = EDGE + 40;

	/**
	 * Counts the requests under way, so that a stop waits for them (refuses new ones).
	 */
	public static final int IN_FLIGHT = Ordered.LOWEST_PRECEDENCE;

	private FilterOrder() {
	}

}
