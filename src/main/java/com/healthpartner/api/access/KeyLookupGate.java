package com.healthpartner.api.access;

import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

/**
 * Asked before a key that is not in the key cache is looked up in the database, so that a
 * request already known to be refused (its address has used up its per-IP window) costs
 * no query. A key in the cache is never asked about: a valid key is not refused because
 * of its address. Implemented by the per-IP rate limits; the access filter needs it.
 */
public interface KeyLookupGate {

	/** Empty to go on with the look-up, or the error to answer instead. */
	Mono<Void> beforeLookup(ServerWebExchange exchange);

}
