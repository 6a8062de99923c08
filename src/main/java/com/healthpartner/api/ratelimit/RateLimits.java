package com.healthpartner.api.ratelimit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.text.LastText;

/**
 * The rate limits a request meets: its partner's plan (check 3), or, for requests that do
 * not get past the key and partner checks and for registrations, the per-address policies
 * {@code anonymous} and {@code registration}. Each decision is remembered on the exchange
 * and its rate-limit headers are written at once, so that every answer carries them,
 * errors and {@code 429}s included. With the limits in this instance's memory a decision
 * is taken at once ({@code ...Now}); with Redis it takes a round trip.
 */
@Component
public class RateLimits {

	static final String DECISIONS = RateLimits.class.getName() + ".decisions";

	private final RateLimiter limiter;

	private final Policies policies;

	private final ClientAddresses addresses;

	private final UsedUpAddresses usedUp;

	private final DecisionCounters counters;

	/** A partner's window's name in the limiter. */
	private final LastText<UUID> subjects = new LastText<>((partnerId) -> "partner:" + partnerId);

	RateLimits(RateLimiter limiter, Policies policies, ClientAddresses addresses, UsedUpAddresses usedUp,
			DecisionCounters counters) {
		this.limiter = limiter;
		this.policies = policies;
		this.addresses = addresses;
		this.usedUp = usedUp;
		this.counters = counters;
	}

	/** Check 3 at once, or null when it takes a round trip ({@link #partner}). */
	public Decision partnerNow(ServerWebExchange exchange, ApiPrincipal principal) {
		Decision decision = this.limiter.acquireNow(this.policies.plan(principal.plan()), subject(principal));
		return (decision != null) ? taken(exchange, decision) : null;
	}

	/**
	 * Check 3 for a request outside any exchange (at the HTTP edge): its refusal when the
	 * partner's window in memory is used up, not yet counted ({@link #count}); otherwise
	 * null, nothing taken.
	 */
	public Decision partnerRefusedNow(ApiPrincipal principal) {
		return this.limiter.refusedNow(this.policies.plan(principal.plan()), subject(principal));
	}

	/** Counts a decision taken outside any exchange, once it is answered. */
	public void count(Decision decision) {
		this.counters.count(decision);
	}

	/** Check 3: the partner's current plan; all keys of a partner share one window. */
	public Mono<Decision> partner(ServerWebExchange exchange, ApiPrincipal principal) {
		return this.limiter.acquire(this.policies.plan(principal.plan()), subject(principal))
			.map((decision) -> taken(exchange, decision));
	}

	/**
	 * A request that did not get past the key and partner checks, taken under
	 * {@code anonymous} for its address: when the address has used up its window it
	 * becomes a {@code 429}, and until the window ends its unknown keys are not looked
	 * up.
	 */
	public Mono<Decision> anonymous(ServerWebExchange exchange) {
		String client = this.addresses.of(exchange.getRequest());
		Decision now = this.limiter.acquireNow(this.policies.anonymous(), "anonymous:" + client);
		Mono<Decision> decision = (now != null) ? Mono.just(now)
				: this.limiter.acquire(this.policies.anonymous(), "anonymous:" + client);
		return decision.map((taken) -> {
			this.usedUp.refused(client, taken);
			return taken(exchange, taken);
		});
	}

	/**
	 * A registration: {@code anonymous}, and if that allows it {@code registration}, both
	 * per address. The binding decision: allowed only if both allowed.
	 */
	public Mono<Decision> registration(ServerWebExchange exchange) {
		String client = this.addresses.of(exchange.getRequest());
		return anonymous(exchange)
			.flatMap((anonymous) -> anonymous.allowed()
					? this.limiter.acquire(this.policies.registration(), "registration:" + client)
						.map((decision) -> taken(exchange, decision))
					: Mono.just(anonymous))
			.map((last) -> RateLimitHeaders.binding(decisions(exchange)));
	}

	/** Whether any limit has been decided for this request yet. */
	public static boolean decided(ServerWebExchange exchange) {
		return !decisions(exchange).isEmpty();
	}

	/** The {@code 429} of a refusing decision, with {@code Retry-After}. */
	public static ApiException limited(Decision decision) {
		long retryAfter = Math.max(1, decision.secondsToReset());
		return new ApiException(ProblemType.RATE_LIMITED,
				"The rate limit " + decision.policy().describe() + " is used up; retry in " + retryAfter + " s",
				List.of(), Map.of(HttpHeaders.RETRY_AFTER, String.valueOf(retryAfter)));
	}

	/**
	 * Records a decision on the exchange (also one taken without the limiter, the window
	 * being known to be used up) and writes the headers of all decisions so far.
	 */
	private Decision taken(ServerWebExchange exchange, Decision decision) {
		return record(exchange, decision, this.counters);
	}

	static Decision record(ServerWebExchange exchange, Decision decision, DecisionCounters counters) {
		List<Decision> decisions = decisions(exchange);
		decisions.add(decision);
		counters.count(decision);
		RateLimitHeaders.write(exchange.getResponse().getHeaders(), decisions);
		return decision;
	}

	@SuppressWarnings("unchecked")
	static List<Decision> decisions(ServerWebExchange exchange) {
		List<Decision> decisions = (List<Decision>) exchange.getAttributes().get(DECISIONS);
		if (decisions == null) {
			decisions = new ArrayList<>(2);
			exchange.getAttributes().put(DECISIONS, decisions);
		}
		return decisions;
	}

	private String subject(ApiPrincipal principal) {
		return this.subjects.of(principal.partnerId());
	}

}
