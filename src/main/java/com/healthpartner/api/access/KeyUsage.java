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
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import com.healthpartner.api.system.DatabaseProperties;
import com.healthpartner.api.system.PeriodicFlush;

/**
 * Remembers when each key was last used and writes it in one batched statement every few
 * seconds, so that {@code last_used_at} costs no database round trip on the request path.
 */
@Component
class KeyUsage extends PeriodicFlush {

	private static final Log log = LogFactory.getLog(KeyUsage.class);

	private static final Duration FLUSH_EVERY = Duration.ofSeconds(5);

	private final Map<UUID, Instant> pending = new ConcurrentHashMap<>();

	private final KeyLookup lookup;

	private final Clock clock;

	private final Duration deadline;

	@Autowired
	KeyUsage(KeyLookup lookup, Clock clock, DatabaseProperties database) {
		this(lookup, clock, database.statementDeadline());
	}

	KeyUsage(KeyLookup lookup, Clock clock, Duration deadline) {
		super(FLUSH_EVERY, deadline);
		this.lookup = lookup;
		this.clock = clock;
		this.deadline = deadline;
	}

	void used(UUID keyId) {
		this.pending.put(keyId, this.clock.instant());
	}

	@Override
	protected Mono<Void> flush() {
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
		// recording a use again is harmless: last_used_at only moves forward
		return this.lookup.recordUse(batch).timeout(this.deadline).onErrorResume((failure) -> {
			batch.forEach(this.pending::putIfAbsent);
			log.debug("Could not record key use yet: " + failure);
			failed(failure);
			return Mono.empty();
		});
	}

}
