package com.healthpartner.api.web;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatusCode;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * First filter of every request: gives it an id, echoes the id on the response whatever
 * happens later, and writes one access log line (never a header value or a body).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class RequestIdFilter implements WebFilter {

	private static final Log accessLog = LogFactory.getLog("com.healthpartner.api.access");

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String id = RequestIds.chooseFor(exchange.getRequest().getHeaders().getFirst(RequestIds.HEADER));
		exchange.getAttributes().put(RequestIds.ATTRIBUTE, id);
		exchange.getResponse().beforeCommit(() -> {
			exchange.getResponse().getHeaders().set(RequestIds.HEADER, id);
			return Mono.empty();
		});
		long start = System.nanoTime();
		return chain.filter(exchange).doFinally((signal) -> logAccess(exchange, id, start));
	}

	private static void logAccess(ServerWebExchange exchange, String id, long start) {
		if (!accessLog.isInfoEnabled()) {
			return;
		}
		HttpStatusCode status = exchange.getResponse().getStatusCode();
		Object partner = exchange.getAttribute(LogAttributes.PARTNER_ID);
		long millis = (System.nanoTime() - start) / 1_000_000;
		accessLog.info("request_id=" + id + " method=" + exchange.getRequest().getMethod() + " path="
				+ exchange.getRequest().getPath().value() + " status=" + ((status != null) ? status.value() : 200)
				+ " partner_id=" + ((partner != null) ? partner : "-") + " duration_ms=" + millis);
	}

}
