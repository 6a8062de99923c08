package com.healthpartner.api.access;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import reactor.core.publisher.Mono;

/**
 * Where the access filter finds keys; implemented by the partner feature's storage.
 */
public interface KeyLookup {

	/** The principal of an unrevoked key with this SHA-256 hash, or empty. */
	Mono<ApiPrincipal> findByHash(byte[] keyHash);

	/** Records when keys were last used (batched by the caller). */
	Mono<Void> recordUse(Map<UUID, Instant> lastUsed);

	/**
	 * The secret ({@code hps_...}) issued with a key, from its stored ciphertext: the key
	 * of the key's request signatures.
	 */
	String decryptSecret(byte[] secretCiphertext);

}
