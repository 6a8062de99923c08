package com.healthpartner.api.ratelimit;

import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import com.healthpartner.api.web.FilterOrder;

/**
 * The per-IP policies, and the rate-limit headers of every {@code /api/v1} answer. It
 * runs before the API-key filter:
 * <ul>
 * <li>a registration ({@code POST /api/v1/auth}, no key) is taken under {@code anonymous}
 * and, if that allows it, under {@code registration};</li>
 * <li>a request that does not get past the key and partner checks (no key, an invalid
 * key, a suspended partner, or the database failing during that check) is taken under
 * {@code anonymous} once it has failed: it becomes a {@code 429} when the address has
 * used up its window, otherwise it keeps its own answer. Until that window ends, a
 * request from that address whose key is not in the key cache gets the {@code 429} before
 * the key is looked up ({@link UsedUpAddresses});</li>
 * <li>every other request is counted against its partner by
 * {@link PartnerLimitFilter}.</li>
 * </ul>
 * The headers are written from the decisions just before the answer is committed, so they
 * are on successes, handler errors and filter errors alike.
 */
@Component
@Order(FilterOrder.CLIENT_LIMIT)
class ClientLimitFilter implements WebFilter {

	private final RateLimits limits;

	private final Policies policies;

	private final ClientAddresses addresses;

	private final UsedUpAddresses usedUp;

	ClientLimitFilter(RateLimits limits, Policies policies, ClientAddresses addresses, UsedUpAddresses usedUp) {
		this.limits = limits;
		this.policies = policies;
		this.addresses = addresses;
		this.usedUp = usedUp;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		if (!RateLimits.isApi(exchange)) {
			return chain.filter(exchange);
		}
		exchange.getResponse().beforeCommit(() -> {
			RateLimitHeaders.write(exchange.getResponse().getHeaders(), RateLimits.decisions(exchange));
			return Mono.empty();
		});
		if (RateLimits.isRegistration(exchange)) {
			String client = this.addresses.of(request);
			return anonymous(exchange, client).filter(Decision::allowed)
				.flatMap((anonymous) -> this.limits.acquire(exchange, this.policies.registration(),
						"registration:" + client))
				.then(Mono.defer(() -> {
					Decision binding = RateLimitHeaders.binding(RateLimits.decisions(exchange));
					return binding.allowed() ? chain.filter(exchange) : Mono.error(RateLimits.limited(binding));
				}));
		}
		return chain.filter(exchange)
			.onErrorResume((failure) -> RateLimits.decisions(exchange).isEmpty(),
					(failure) -> anonymous(exchange, this.addresses.of(request)).flatMap(
							(decision) -> Mono.error(decision.allowed() ? failure : RateLimits.limited(decision))));
	}

	private Mono<Decision> anonymous(ServerWebExchange exchange, String client) {
		return this.limits.acquire(exchange, this.policies.anonymous(), "anonymous:" + client)
			.doOnNext((decision) -> this.usedUp.refused(client, decision));
	}

}
