package com.healthpartner.api.access;

import java.time.Instant;

import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code accessChanges} in {@code /actuator/health} and its readiness group: {@code UP}
 * while the {@code LISTEN} connection of {@link AccessChangeListener} listens, so that a
 * key revoked or a partner suspended on another instance is refused here on its next
 * request. While it is down the instance still refuses them (it checks every key in the
 * database, bypassing its cache), but it is slower and depends on every look-up, so it
 * says {@code DOWN}; the listener reconnects by itself and the log says when it was lost
 * and when it listens again.
 */
@Component
class AccessChangesHealthIndicator implements ReactiveHealthIndicator {

	private final KeyCache cache;

	private final AccessChangeListener listener;

	AccessChangesHealthIndicator(KeyCache cache, AccessChangeListener listener) {
		this.cache = cache;
		this.listener = listener;
	}

	@Override
	public Mono<Health> health() {
		return Mono.fromSupplier(() -> {
			if (this.cache.listening()) {
				return Health.up().build();
			}
			Instant lost = this.listener.lostSince();
			Health.Builder down = Health.down().withDetail("listening", false);
			return ((lost != null) ? down.withDetail("since", lost.toString()) : down).build();
		});
	}

}
