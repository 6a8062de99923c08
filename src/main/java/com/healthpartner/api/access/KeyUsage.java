package com.healthpartner.api.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Remembers when each key was last used and writes it in one batched statement every few
 * seconds, so that {@code last_used_at} costs no database round trip on the request path.
 */
@Component
class KeyUsage implements SmartLifecycle {

	private static final Log log = LogFactory.getLog(KeyUsage.class);

	private static final Duration FLUSH_EVERY = Duration.ofSeconds(5);

	private final Map<UUID, Instant> pending = new ConcurrentHashMap<>();

	private final KeyLookup lookup;

	private final Clock clock;

	private volatile Disposable flushing;

	KeyUsage(KeyLookup lookup, Clock clock) {
		this.lookup = lookup;
		this.clock = clock;
	}

	void used(UUID keyId) {
		this.pending.put(keyId, this.clock.instant());
	}

	Mono<Void> flush() {
		if (this.pending.isEmpty()) {
			return Mono.empty();
		}
		Map<UUID, Instant> batch = new HashMap<>();
		for (UUID keyId : this.pending.keySet()) {
			Instant at = this.pending.remove(keyId);
			if (at != null) {
				batch.put(keyId, at);
			}
		}
		return this.lookup.recordUse(batch).onErrorResume((failure) -> {
			batch.forEach(this.pending::putIfAbsent);
			log.debug("Could not record key use yet: " + failure);
			return Mono.empty();
		});
	}

	@Override
	public void start() {
		this.flushing = Flux.interval(FLUSH_EVERY).concatMap((tick) -> flush()).subscribe();
	}

	@Override
	public void stop(Runnable callback) {
		Disposable current = this.flushing;
		if (current != null) {
			current.dispose();
		}
		flush().timeout(Duration.ofSeconds(5))
			.onErrorResume((failure) -> Mono.empty())
			.doFinally((signal) -> callback.run())
			.subscribe();
	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	/**
	 * Stops after the web server has finished its in-flight requests, whose uses count
	 * too.
	 */
	@Override
	public int getPhase() {
		return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE - 2048;
	}

	@Override
	public boolean isRunning() {
		Disposable current = this.flushing;
		return current != null && !current.isDisposed();
	}

}
