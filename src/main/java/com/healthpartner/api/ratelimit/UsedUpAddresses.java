package com.healthpartner.api.ratelimit;

import java.time.Clock;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.access.KeyLookupGate;

/**
 * Addresses that have used up their {@code anonymous} window, as this instance learnt
 * from the decision that gave one of them a {@code 429}, kept until that window ends. A
 * request from such an address whose key would have to be looked up in the database gets
 * the {@code 429} at once: a client cannot make each of its refused requests cost a query
 * by sending ever new made-up keys. A key in the key cache is never asked about, so a
 * valid key is not refused because of its address.
 */
@Component
class UsedUpAddresses implements KeyLookupGate {

	/**
	 * Beyond that, the least recent addresses are forgotten (they cost one query more).
	 */
	static final long MAXIMUM_ADDRESSES = 100_000;

	private final Cache<String, Decision> refusals;

	private final DecisionCounters counters;

	private final ClientAddresses addresses;

	private final Clock clock;

	UsedUpAddresses(DecisionCounters counters, Policies policies, ClientAddresses addresses, Clock clock) {
		this.counters = counters;
		this.addresses = addresses;
		this.clock = clock;
		// an entry is of no use after its window (checked on the clock when read)
		this.refusals = Caffeine.newBuilder()
			.maximumSize(MAXIMUM_ADDRESSES)
			.expireAfterWrite(policies.anonymous().window())
			.executor(Runnable::run)
			.build();
	}

	/** Remembers a refusal under {@code anonymous} of this client address. */
	void refused(String client, Decision anonymous) {
		if (!anonymous.allowed()) {
			this.refusals.put(client, anonymous);
		}
	}

	@Override
	public Mono<Void> beforeLookup(ServerWebExchange exchange) {
		String client = this.addresses.of(exchange.getRequest());
		Decision refusal = this.refusals.getIfPresent(client);
		if (refusal == null) {
			return Mono.empty();
		}
		long now = this.clock.millis();
		if (now < refusal.decidedAtMillis() || now >= refusal.resetAtMillis()) {
			// the window has ended (or the clock was set back: the limiter starts anew)
			this.refusals.asMap().remove(client, refusal);
			return Mono.empty();
		}
		Decision again = new Decision(refusal.policy(), false, 0, refusal.resetAtMillis(), now);
		RateLimits.record(exchange, again, this.counters);
		return Mono.error(RateLimits.limited(again));
	}

}
