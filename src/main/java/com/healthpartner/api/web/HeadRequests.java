package com.healthpartner.api.web;

import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * {@code HEAD} answered wherever {@code GET} is (docs/api.md, The HTTP edge).
 * {@link EdgeFilter} hands the rest of the chain a request whose method is {@code GET},
 * so the routes, the gate (scopes, rate limit) and the handlers treat it exactly as a
 * {@code GET}; the response was already wrapped by Spring's
 * {@code HttpHeadResponseDecorator}, which drops the body: a body given as one buffer
 * (every JSON answer) sets the {@code Content-Length} the {@code GET} would send, a
 * stream (an NDJSON export) sends none. The access log and the request metrics read the
 * method of the original request: {@code HEAD}.
 */
public final class HeadRequests {

	private static final String ATTRIBUTE = HeadRequests.class.getName() + ".HEAD";

	private HeadRequests() {
	}

	/**
	 * The exchange the chain after the edge should see: {@code exchange} itself, or for a
	 * {@code HEAD} the same exchange with a {@code GET} request.
	 */
	static ServerWebExchange routed(ServerWebExchange exchange) {
		if (!HttpMethod.HEAD.equals(exchange.getRequest().getMethod())) {
			return exchange;
		}
		exchange.getAttributes().put(ATTRIBUTE, Boolean.TRUE);
		return exchange.mutate().request((request) -> request.method(HttpMethod.GET)).build();
	}

	/** Whether {@code request} came as a {@code HEAD}, now routed as a {@code GET}. */
	public static boolean isHead(ServerRequest request) {
		return request.attribute(ATTRIBUTE).isPresent();
	}

}
