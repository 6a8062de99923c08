package com.healthpartner.api.web;

import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.server.handler.ExceptionHandlingWebHandler;
import org.springframework.web.util.pattern.PathPattern;

import com.healthpartner.api.problem.RequestIds;

/**
 * First filter of every request: gives it an id and echoes it, marks answers that may
 * hold data {@code Cache-Control: no-store}, and when the exchange ends records its
 * access log line and its latency. Both headers are set at once rather than just before
 * the answer is committed: nothing after this filter removes them, and every answer, an
 * error's included, is written after it. A {@code HEAD} goes on as a {@code GET}
 * ({@link HeadRequests}) but is logged and measured as the {@code HEAD} it was.
 */
@Component
@Order(FilterOrder.EDGE)
class EdgeFilter implements WebFilter {

	private static final String NO_STORE = CacheControl.noStore().getHeaderValue();

	private final Answers answers;

	EdgeFilter(Answers answers) {
		this.answers = answers;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		long start = System.nanoTime();
		String id = RequestIds.assign(exchange);
		HttpHeaders headers = exchange.getResponse().getHeaders();
		headers.set(RequestIds.HEADER, id);
		if (RequestPaths.zone(exchange).apiOrAdmin()) {
			headers.set(HttpHeaders.CACHE_CONTROL, NO_STORE);
		}
		return chain.filter(HeadRequests.routed(exchange)).doFinally((signal) -> ended(exchange, id, start));
	}

	/**
	 * The filter's name in Spring's filter chain, which names each filter in a checkpoint
	 * of every request: a constant, not a string made anew for each (Object's).
	 */
	@Override
	public String toString() {
		return "EdgeFilter";
	}

	private void ended(ServerWebExchange exchange, String id, long start) {
		ServerHttpResponse response = exchange.getResponse();
		HttpStatusCode code = response.getStatusCode();
		PathPattern pattern = exchange.getAttribute(RouterFunctions.MATCHING_PATTERN_ATTRIBUTE);
		Throwable handled = exchange.getAttribute(ExceptionHandlingWebHandler.HANDLED_WEB_EXCEPTION);
		String partner = exchange.getAttribute(LogAttributes.PARTNER_ID);
		this.answers.ended(id, exchange.getRequest().getMethod().name(),
				(pattern != null) ? pattern.getPatternString() : null, exchange.getRequest().getPath().value(),
				(code != null) ? code.value() : 200, (handled != null) ? handled.getClass().getSimpleName() : null,
				partner, start);
	}

}
