package com.healthpartner.api.signature;

import java.time.Instant;

import reactor.core.publisher.Mono;

/**
 * Remembers the signatures of signed writes until they expire, so that each is accepted
 * once. In this instance's memory by default, in Redis (all instances) when the
 * rate-limit store is Redis.
 */
interface ReplayGuard {

	/**
	 * True the first time this signature is presented, false for a replay before
	 * {@code validUntil}.
	 */
	Mono<Boolean> firstUse(byte[] signature, Instant validUntil);

}
