package com.healthpartner.api.access;

import java.time.Clock;
import java.util.Optional;

import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * Checks 1 and 2 (docs/api.md) on {@code /api/v1} (all but registration): 1. the
 * {@code x-api-key} is present ({@code 401 missing_api_key}) and is a known, unrevoked,
 * unexpired key ({@code 401 invalid_api_key}, the same answer for all three), 2. its
 * partner is active ({@code 403 partner_suspended}). A key in the key cache is checked at
 * once; any other is looked up, and only if the {@link KeyLookupGate} (the per-address
 * limits) lets it.
 */
@Component
public class ApiKeys {

	public static final String HEADER = "x-api-key";

	private static final ApiException MISSING = new ApiException(ProblemType.MISSING_API_KEY,
			"Send your API key in the x-api-key header");

	private static final ApiException INVALID = new ApiException(ProblemType.INVALID_API_KEY,
			"The API key is unknown, revoked or expired");

	private final KeyCache keys;

	private final KeyUsage usage;

	private final KeyLookupGate gate;

	private final Clock clock;

	ApiKeys(KeyCache keys, KeyUsage usage, KeyLookupGate gate, Clock clock) {
		this.keys = keys;
		this.usage = usage;
		this.gate = gate;
		this.clock = clock;
	}

	/** The outcome when it is known without the database, otherwise null. */
	public KeyCheck checkNow(ServerWebExchange exchange) {
		return checkNow(exchange.getRequest().getHeaders().getFirst(HEADER));
	}

	/** {@link #checkNow(ServerWebExchange)} of the key a request sent (or null). */
	public KeyCheck checkNow(String apiKey) {
		if (apiKey == null || apiKey.isBlank()) {
			return KeyCheck.refused(MISSING);
		}
		if (!apiKey.startsWith("hpk_") || apiKey.length() != 36) {
			return KeyCheck.refused(INVALID);
		}
		Optional<ApiPrincipal> cached = this.keys.cached(apiKey);
		return (cached != null) ? check(cached) : null;
	}

	/** The outcome of a key that {@link #checkNow} could not decide: looked up. */
	public Mono<KeyCheck> lookUp(ServerWebExchange exchange) {
		String apiKey = exchange.getRequest().getHeaders().getFirst(HEADER);
		return this.keys.resolve(apiKey, Mono.defer(() -> this.gate.beforeLookup(exchange))).map(this::check);
	}

	/**
	 * Whether the request's key resolved to a partner's key recently, so that a failure
	 * to check it (the database gone) is the service's, not a made-up key's: never a
	 * grant.
	 */
	public boolean known(ServerWebExchange exchange) {
		return this.keys.known(exchange.getRequest().getHeaders().getFirst(HEADER));
	}

	/** Records that a request with this key was accepted (its {@code last_used_at}). */
	public void used(ApiPrincipal principal) {
		this.usage.used(principal.keyId());
	}

	private KeyCheck check(Optional<ApiPrincipal> found) {
		if (found.isEmpty() || found.get().expiredAt(this.clock.instant())) {
			return KeyCheck.refused(INVALID);
		}
		ApiPrincipal principal = found.get();
		if (!principal.active()) {
			return KeyCheck.refused(new ApiException(ProblemType.PARTNER_SUSPENDED,
					"Access of partner " + principal.partnerId() + " is suspended by an administrator"));
		}
		return KeyCheck.granted(principal);
	}

}
