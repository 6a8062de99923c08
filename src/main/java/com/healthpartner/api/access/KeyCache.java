package com.healthpartner.api.access;

import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.partner.Credentials;

/**
 * Resolved keys, cached briefly so that a request does not cost a database query.
 * Correctness does not rest on the expiry: every change is announced (locally, and to
 * other instances through {@code NOTIFY}) and evicts at once. While the {@code LISTEN}
 * connection is down the cache is bypassed, because announcements could be missed.
 */
@Component
class KeyCache implements AccessInvalidation {

	private final AsyncCache<String, Optional<ApiPrincipal>> cache = Caffeine.newBuilder()
		.expireAfterWrite(Duration.ofSeconds(30))
		.maximumSize(100_000)
		.buildAsync();

	private final KeyLookup lookup;

	private volatile boolean listening;

	KeyCache(KeyLookup lookup) {
		this.lookup = lookup;
	}

	Mono<ApiPrincipal> resolve(String apiKey) {
		byte[] hash = Credentials.hash(apiKey);
		if (!this.listening) {
			return this.lookup.findByHash(hash);
		}
		CompletableFuture<Optional<ApiPrincipal>> entry = this.cache.get(HexFormat.of().formatHex(hash),
				(key, executor) -> this.lookup.findByHash(hash)
					.map(Optional::of)
					.defaultIfEmpty(Optional.empty())
					.toFuture());
		// suppressCancel: one client hanging up must not cancel a look-up other requests
		// wait on
		return Mono.fromFuture(entry, true).flatMap(Mono::justOrEmpty);
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

	void listening(boolean listening) {
		this.listening = listening;
		this.cache.synchronous().invalidateAll();
	}

}
