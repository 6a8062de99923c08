package com.healthpartner.api.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatusCode;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;

import com.healthpartner.api.problem.RequestIds;

/**
 * First filter of every request: gives it an id, echoes the id on the response whatever
 * happens later, and writes one access log line (never a header value, query or body: the
 * query may hold a user id). The line's fields are also key-value pairs, so that the
 * structured JSON logs of the {@code prod} profile carry them as fields.
 */
@Component
@Order(FilterOrder.REQUEST_ID)
class RequestIdFilter implements WebFilter {

	private static final Logger accessLog = LoggerFactory.getLogger("com.healthpartner.api.access");

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String id = RequestIds.assign(exchange);
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
		int statusValue = (status != null) ? status.value() : 200;
		Object partner = exchange.getAttribute(LogAttributes.PARTNER_ID);
		String partnerId = (partner != null) ? partner.toString() : "-";
		String route = route(exchange);
		String method = exchange.getRequest().getMethod().name();
		String path = exchange.getRequest().getPath().value();
		long millis = (System.nanoTime() - start) / 1_000_000;
		accessLog.atInfo()
			.addKeyValue("request_id", id)
			.addKeyValue("method", method)
			.addKeyValue("route", route)
			.addKeyValue("path", path)
			.addKeyValue("status", statusValue)
			.addKeyValue("partner_id", partnerId)
			.addKeyValue("duration_ms", millis)
			.log("request_id={} method={} route={} path={} status={} partner_id={} duration_ms={}", id, method, route,
					path, statusValue, partnerId, millis);
	}

	/**
	 * The route's pattern ({@code /api/v1/health/metrics/{id}}), never the path itself:
	 * paths may hold ids, and a pattern keeps log fields and metrics of one route
	 * together.
	 */
	private static String route(ServerWebExchange exchange) {
		PathPattern pattern = exchange.getAttribute(RouterFunctions.MATCHING_PATTERN_ATTRIBUTE);
		return (pattern != null) ? pattern.getPatternString() : "UNMATCHED";
	}

}
