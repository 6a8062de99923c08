package com.healthpartner.api.listing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.system.DatabaseProperties;

/**
 * Caps the NDJSON exports running at once, per partner and per instance. Each export
 * holds a pool connection (and a read-only transaction) for as long as its client takes
 * to read, so without a cap a few partners exporting at once could take every connection
 * of the pool from all other requests. A slot is taken before any database work and given
 * back exactly once, whether the export completed, failed or was cancelled.
 */
@Component
class ExportSlots {

	/** Seconds a refused partner is told to wait; exports take seconds to minutes. */
	static final int RETRY_AFTER_SECONDS = 10;

	private final int perInstance;

	private final int perPartner;

	private final Map<UUID, Integer> byPartner = new HashMap<>();

	private int running;

	private final Counter refusedForPartner;

	private final Counter refusedForInstance;

	ExportSlots(DatabaseProperties database, MeterRegistry registry) {
		this.perInstance = database.maxConcurrentExports();
		this.perPartner = database.maxConcurrentExportsPerPartner();
		Gauge.builder("api.exports.running", this, ExportSlots::running)
			.description("NDJSON exports running on this instance, each holding a database connection")
			.register(registry);
		this.refusedForPartner = refused(registry, "partner");
		this.refusedForInstance = refused(registry, "instance");
	}

	/**
	 * A slot for one export of {@code partnerId}; {@code 429 rate_limited} when the
	 * partner or the instance already runs as many exports as allowed.
	 */
	Slot acquire(UUID partnerId) {
		synchronized (this) {
			int partnerRunning = this.byPartner.getOrDefault(partnerId, 0);
			if (partnerRunning >= this.perPartner) {
				this.refusedForPartner.increment();
				throw limited("Your organisation already runs " + partnerRunning
						+ " NDJSON exports at once, the concurrent-export limit per partner; retry in "
						+ RETRY_AFTER_SECONDS + " s, when one has finished");
			}
			if (this.running >= this.perInstance) {
				this.refusedForInstance.increment();
				throw limited("This instance already runs " + this.running
						+ " NDJSON exports at once, its concurrent-export limit; retry in " + RETRY_AFTER_SECONDS
						+ " s");
			}
			this.byPartner.put(partnerId, partnerRunning + 1);
			this.running++;
		}
		return new Slot(partnerId);
	}

	synchronized int running() {
		return this.running;
	}

	private synchronized void release(UUID partnerId) {
		this.running--;
		this.byPartner.computeIfPresent(partnerId, (id, count) -> (count > 1) ? count - 1 : null);
	}

	private static ApiException limited(String detail) {
		return new ApiException(ProblemType.RATE_LIMITED, detail, List.of(),
				Map.of(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER_SECONDS)));
	}

	private static Counter refused(MeterRegistry registry, String limit) {
		return Counter.builder("api.exports.refused")
			.description("NDJSON exports refused with 429 because too many ran at once, by the limit reached")
			.tag("limit", limit)
			.register(registry);
	}

	/** One running export; {@link #release()} gives the slot back, once. */
	final class Slot {

		private final UUID partnerId;

		private final AtomicBoolean released = new AtomicBoolean();

		private Slot(UUID partnerId) {
			this.partnerId = partnerId;
		}

		void release() {
			if (this.released.compareAndSet(false, true)) {
				ExportSlots.this.release(this.partnerId);
			}
		}

	}

}
