package com.healthpartner.api.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;

import com.healthpartner.api.crypto.Digests;

/**
 * Keys held in memory by their hash, as the partner feature stores them, for fast tests
 * of the access checks; counts its look-ups.
 */
public final class InMemoryKeys implements KeyLookup {

	private final Map<String, ApiPrincipal> byHash = new HashMap<>();

	private final Map<UUID, String> secrets = new HashMap<>();

	private final AtomicInteger lookups = new AtomicInteger();

	private volatile RuntimeException failure;

	private volatile KeyCache cache;

	/** Adds a key of a partner with all scopes; returns its principal. */
	public ApiPrincipal add(String key, String plan, PartnerStatus status, Instant expiresAt) {
		ApiPrincipal principal = new ApiPrincipal(UUID.randomUUID(), "Gym " + key.substring(4, 8), plan, status,
				UUID.randomUUID(), Scope.all(), false, expiresAt, new byte[0]);
		this.byHash.put(Arrays.toString(Digests.sha256(key)), principal);
		return principal;
	}

	public int lookups() {
		return this.lookups.get();
	}

	/**
	 * The database gone ({@code failure}) or back (null): while gone every look-up fails
	 * with {@code failure}, and the key cache is bypassed, as when its {@code LISTEN}
	 * connection is down.
	 */
	public void outage(RuntimeException failure) {
		this.failure = failure;
		KeyCache cache = this.cache;
		if (cache != null) {
			cache.listening(failure == null);
		}
	}

	@Override
	public Mono<ApiPrincipal> findByHash(byte[] keyHash) {
		this.lookups.incrementAndGet();
		RuntimeException failure = this.failure;
		return (failure != null) ? Mono.error(failure) : Mono.justOrEmpty(this.byHash.get(Arrays.toString(keyHash)));
	}

	@Override
	public Mono<Void> recordUse(Map<UUID, Instant> lastUsed) {
		return Mono.empty();
	}

	@Override
	public String decryptSecret(byte[] secretCiphertext) {
		throw new UnsupportedOperationException("no signed requests here");
	}

	/** The checks 1 and 2 over these keys, with a key cache that trusts its entries. */
	public ApiKeys apiKeys(KeyLookupGate gate, Clock clock) {
		KeyCache cache = new KeyCache(this);
		cache.listening(true);
		this.cache = cache;
		return new ApiKeys(cache, new KeyUsage(this, clock, Duration.ofSeconds(2)), gate, clock);
	}

}
