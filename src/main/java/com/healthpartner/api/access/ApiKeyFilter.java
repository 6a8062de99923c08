package com.healthpartner.api.access;

import java.time.Clock;

import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.web.FilterOrder;
import com.healthpartner.api.web.LogAttributes;
import com.healthpartner.api.web.RequestPaths;

/**
 * Authenticates {@code /api/v1/**} (all but registration) by {@code x-api-key}: 1. the
 * key is known, unrevoked and unexpired (401), 2. the partner is active (403). The
 * resolved partner is put on the exchange for the rate limit (3), the signature (4), the
 * route's scope check (5) and the handlers. A refusal never reaches the handler. A key
 * that is not in the key cache is looked up only if the {@link KeyLookupGate} (the per-IP
 * limits) lets it.
 */
@Component
@Order(FilterOrder.API_KEY)
class ApiKeyFilter implements WebFilter {

	static final String HEADER = "x-api-key";

	private final KeyCache keys;

	private final KeyUsage usage;

	private final KeyLookupGate gate;

	private final Clock clock;

	ApiKeyFilter(KeyCache keys, KeyUsage usage, KeyLookupGate gate, Clock clock) {
		this.keys = keys;
		this.usage = usage;
		this.gate = gate;
		this.clock = clock;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		if (!needsKey(exchange)) {
			return chain.filter(exchange);
		}
		String apiKey = request.getHeaders().getFirst(HEADER);
		if (apiKey == null || apiKey.isBlank()) {
			return Mono
				.error(new ApiException(ProblemType.MISSING_API_KEY, "Send your API key in the x-api-key header"));
		}
		if (!apiKey.startsWith("hpk_") || apiKey.length() != 36) {
			return Mono.error(invalid());
		}
		return this.keys.resolve(apiKey, Mono.defer(() -> this.gate.beforeLookup(exchange)))
			.switchIfEmpty(Mono.error(ApiKeyFilter::invalid))
			.flatMap((principal) -> {
				if (principal.expiredAt(this.clock.instant())) {
					return Mono.error(invalid());
				}
				exchange.getAttributes().put(ApiPrincipal.ATTRIBUTE, principal);
				exchange.getAttributes().put(LogAttributes.PARTNER_ID, principal.partnerId());
				if (!principal.active()) {
					return Mono.error(new ApiException(ProblemType.PARTNER_SUSPENDED,
							"Access of partner " + principal.partnerId() + " is suspended by an administrator"));
				}
				// a refused (429) request did not use the key: it must leave no trace
				exchange.getResponse().beforeCommit(() -> {
					HttpStatusCode status = exchange.getResponse().getStatusCode();
					if (status == null || status.value() != HttpStatus.TOO_MANY_REQUESTS.value()) {
						this.usage.used(principal.keyId());
					}
					return Mono.empty();
				});
				return chain.filter(exchange);
			});
	}

	static boolean needsKey(ServerWebExchange exchange) {
		// as the routers see the path (decoded, without matrix parameters)
		return RequestPaths.isUnder(exchange, "/api/v1") && !RequestPaths.isRegistration(exchange);
	}

	private static ApiException invalid() {
		return new ApiException(ProblemType.INVALID_API_KEY, "The API key is unknown, revoked or expired");
	}

}
