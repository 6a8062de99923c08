package com.healthpartner.api.ratelimit;

import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.web.FilterOrder;

/**
 * Check 3 of the contract: after the key (1) and the partner's status (2), before the
 * signature (4) and the scope (5). The partner's current plan (the key cache is evicted
 * when an administrator changes it) decides the limit; all keys of a partner share one
 * window. A request that passes counts whatever its answer turns out to be; a refused one
 * is a {@code 429} that reaches no handler and so does no database work.
 */
@Component
@Order(FilterOrder.PARTNER_LIMIT)
class PartnerLimitFilter implements WebFilter {

	private final RateLimits limits;

	private final Policies policies;

	PartnerLimitFilter(RateLimits limits, Policies policies) {
		this.limits = limits;
		this.policies = policies;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ApiPrincipal principal = exchange.getAttribute(ApiPrincipal.ATTRIBUTE);
		if (principal == null || !RateLimits.isApi(exchange)) {
			return chain.filter(exchange);
		}
		return this.limits.acquire(exchange, this.policies.plan(principal.plan()), "partner:" + principal.partnerId())
			.flatMap((decision) -> decision.allowed() ? chain.filter(exchange)
					: Mono.error(RateLimits.limited(decision)));
	}

}
