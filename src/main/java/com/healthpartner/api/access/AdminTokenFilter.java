package com.healthpartner.api.access;

import java.security.MessageDigest;

import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import com.healthpartner.api.crypto.Digests;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.system.AppProperties;
import com.healthpartner.api.web.FilterOrder;
import com.healthpartner.api.web.RequestPaths;

/**
 * {@code /admin/**} needs {@code Authorization: Bearer <admin token>}; nothing else opens
 * it. Compared as SHA-256 digests in constant time so neither length nor content leaks
 * through timing.
 */
@Component
@Order(FilterOrder.ADMIN_TOKEN)
class AdminTokenFilter implements WebFilter {

	private final byte[] expected;

	AdminTokenFilter(AppProperties properties) {
		this.expected = Digests.sha256(properties.adminToken());
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		// all of /admin, as the routers see it (decoded, without matrix parameters)
		if (!RequestPaths.isUnder(exchange, "/admin")) {
			return chain.filter(exchange);
		}
		String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
		if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)
				|| !MessageDigest.isEqual(this.expected, Digests.sha256(authorization.substring(7).trim()))) {
			return Mono.error(new ApiException(ProblemType.INVALID_ADMIN_TOKEN,
					"Send Authorization: Bearer <admin token>; the token is missing or wrong"));
		}
		return chain.filter(exchange);
	}

}
