package com.healthpartner.api.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import com.healthpartner.api.system.AppProperties;
import com.healthpartner.api.web.ApiException;
import com.healthpartner.api.web.ProblemType;
import com.healthpartner.api.web.RequestPaths;

/**
 * {@code /admin/**} needs {@code Authorization: Bearer <admin token>}; nothing else opens
 * it. Compared as SHA-256 digests in constant time so neither length nor content leaks
 * through timing.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class AdminTokenFilter implements WebFilter {

	private final byte[] expected;

	AdminTokenFilter(AppProperties properties) {
		this.expected = digest(properties.adminToken());
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		// all of /admin, as the routers see it (decoded, without matrix parameters)
		if (!RequestPaths.isUnder(exchange, "/admin")) {
			return chain.filter(exchange);
		}
		String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
		if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)
				|| !MessageDigest.isEqual(this.expected, digest(authorization.substring(7).trim()))) {
			return Mono.error(new ApiException(ProblemType.INVALID_ADMIN_TOKEN,
					"Send Authorization: Bearer <admin token>; the token is missing or wrong"));
		}
		return chain.filter(exchange);
	}

	private static byte[] digest(String token) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
