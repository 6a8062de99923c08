package com.healthpartner.api.access;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.crypto.Digests;

/**
 * Resolved keys, cached briefly so that a request does not cost a database query.
 * Correctness does not rest on the expiry: every change is announced (locally, and to
 * other instances through {@code NOTIFY}) and evicts at once. While the {@code LISTEN}
 * connection is down the cache is bypassed, because announcements could be missed.
 * <p>
 * A key that must be looked up passes the {@link KeyLookupGate} first, unless it resolved
 * to a partner's key here recently ({@code known}: never used to grant access, only to
 * tell a partner's key from a made-up one), so that a partner whose key just left the
 * cache (expiry, an administrator's change) is not refused because of its address.
 */
@Component
class KeyCache implements AccessInvalidation {

	private final AsyncCache<KeyHash, Optional<ApiPrincipal>> cache = Caffeine.newBuilder()
		.expireAfterWrite(Duration.ofSeconds(30))
		.maximumSize(100_000)
		.buildAsync();

	private final Cache<KeyHash, Boolean> known = Caffeine.newBuilder()
		.expireAfterAccess(Duration.ofHours(24))
		.maximumSize(100_000)
		.build();

	private final KeyLookup lookup;

	private volatile boolean listening;

	KeyCache(KeyLookup lookup) {
		this.lookup = lookup;
	}

	/**
	 * What the cache knows of a key at once: its principal, empty for a key known not to
	 * exist, or null when it must be looked up (or a look-up is under way).
	 */
	Optional<ApiPrincipal> cached(String apiKey) {
		if (!this.listening) {
			return null;
		}
		CompletableFuture<Optional<ApiPrincipal>> entry = this.cache.getIfPresent(KeyHash.of(apiKey));
		if (entry == null || !entry.isDone() || entry.isCompletedExceptionally()) {
			return null;
		}
		return entry.join();
	}

	/**
	 * The principal of a key (empty for an unknown one), from the cache or else from the
	 * database. A look-up already under way for the same key counts as cached: joining it
	 * costs no query.
	 */
	Mono<Optional<ApiPrincipal>> resolve(String apiKey, Mono<Void> beforeLookup) {
		KeyHash key = KeyHash.of(apiKey);
		if (this.listening) {
			CompletableFuture<Optional<ApiPrincipal>> cached = this.cache.getIfPresent(key);
			if (cached != null) {
				return principal(cached);
			}
		}
		Mono<Void> gate = (this.known.getIfPresent(key) != null) ? Mono.empty() : beforeLookup;
		return gate.then(Mono.defer(() -> {
			if (!this.listening) {
				return lookUp(key).map(Optional::of).defaultIfEmpty(Optional.empty());
			}
			return principal(this.cache.get(key,
					(k, executor) -> lookUp(key).map(Optional::of).defaultIfEmpty(Optional.empty()).toFuture()));
		}));
	}

	/**
	 * Whether {@code apiKey} resolved to a partner's key here recently: never a grant,
	 * only what tells a partner's key whose check failed from a made-up one.
	 */
	boolean known(String apiKey) {
		return apiKey != null && this.known.getIfPresent(KeyHash.of(apiKey)) != null;
	}

	private Mono<ApiPrincipal> lookUp(KeyHash key) {
		return this.lookup.findByHash(key.bytes())
			.doOnNext((principal) -> this.known.put(key, Boolean.TRUE))
			.switchIfEmpty(Mono.fromRunnable(() -> this.known.invalidate(key)));
	}

	private static Mono<Optional<ApiPrincipal>> principal(CompletableFuture<Optional<ApiPrincipal>> entry) {
		// suppressCancel: one client hanging up must not cancel a look-up other requests
		// wait on
		return Mono.fromFuture(entry, true);
	}

	@Override
	public Mono<Void> partnerChanged(UUID partnerId) {
		return Mono.fromRunnable(() -> evict(partnerId));
	}

	void evict(UUID partnerId) {
		// a look-up still under way may have read the partner before the change: it goes
		// too, and so do negative entries (they may be keys just issued to this partner)
		this.cache.asMap().values().removeIf((entry) -> {
			if (!entry.isDone() || entry.isCompletedExceptionally()) {
				return true;
			}
			Optional<ApiPrincipal> principal = entry.getNow(Optional.empty());
			return principal.map((p) -> p.partnerId().equals(partnerId)).orElse(true);
		});
	}

	boolean listening() {
		return this.listening;
	}

	/** A key's SHA-256 hash, the form in which keys are stored and cached. */
	private record Hashed(String apiKey, KeyHash hash) {
	}

	private record KeyHash(long first, long second, long third, long fourth) {

		/**
		 * The last key hashed on this thread: the HTTP edge and the gate check a
		 * request's key one after the other on its event loop, and hash it once.
		 */
		private static final ThreadLocal<Hashed> LAST = new ThreadLocal<>();

		static KeyHash of(String apiKey) {
			Hashed last = LAST.get();
			if (last != null && last.apiKey().equals(apiKey)) {
				return last.hash();
			}
			ByteBuffer digest = ByteBuffer.wrap(Digests.sha256(apiKey));
			KeyHash hash = new KeyHash(digest.getLong(), digest.getLong(), digest.getLong(), digest.getLong());
			LAST.set(new Hashed(apiKey, hash));
			return hash;
		}

		byte[] bytes() {
			return ByteBuffer.allocate(32)
				.putLong(this.first)
				.putLong(this.second)
				.putLong(this.third)
				.putLong(this.fourth)
				.array();
		}

	}

	void listening(boolean listening) {
		this.listening = listening;
		this.cache.synchronous().invalidateAll();
	}

}
