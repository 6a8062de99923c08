package com.healthpartner.api.web;

import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Answers of {@code /api/v1} and {@code /admin/v1} hold health data, credentials or
 * partner details: no cache between the partner and the service may keep them
 * ({@code Cache-Control: no-store}).
 */
@Component
@Order(FilterOrder.NO_STORE)
class NoStoreFilter implements WebFilter {

	private static final String NO_STORE = CacheControl.noStore().getHeaderValue();

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (RequestPaths.isApiOrAdmin(exchange)) {
			exchange.getResponse().beforeCommit(() -> {
				exchange.getResponse().getHeaders().set(HttpHeaders.CACHE_CONTROL, NO_STORE);
				return Mono.empty();
			});
		}
		return chain.filter(exchange);
	}

}
