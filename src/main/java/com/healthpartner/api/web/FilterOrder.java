package com.healthpartner.api.web;

import org.springframework.core.Ordered;

/**
 * The order of the service's two {@code WebFilter}s, stated once: the edge of every
 * request (its id, {@code no-store}, and what is recorded when it ends) comes first, so
 * that even a refusal carries the id and is logged; then the gate, which holds every
 * check of {@code /api} and {@code /admin} in the documented order (docs/api.md) in one
 * class ({@code gate.ApiGate}). A filter states its place by naming one of these.
 */
public final class FilterOrder {

	/** The request id, {@code no-store}, the access log line and the latency. */
	public static final int EDGE = Ordered.HIGHEST_PRECEDENCE;

	/**
	 * The admin token, checks 1 to 4 and the per-address limits, the deadline, the drain.
	 */
	public static final int GATE = EDGE + 10;

	private FilterOrder() {
	}

}
