package com.healthpartner.api.erasure;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.system.BatchedDeletes;
import com.healthpartner.api.system.PeriodicSweep;

/**
 * Carries out pending erasures, whichever instance accepted them, so that an erasure
 * survives a restart: it looks for them in the table every poll interval, and at once
 * when this instance accepts one. Each erasure is deleted batch by batch (records, then
 * the user's earlier changes), each batch its own short statement, and completed once
 * nothing it covers is left. Two instances working on one erasure delete disjoint rows
 * (locked rows are skipped) and complete it once.
 */
@Component
class ErasureWorker extends PeriodicSweep {

	private static final Log log = LogFactory.getLog(ErasureWorker.class);

	private static final int PENDING_PER_ROUND = 100;

	private final ErasureRepository erasures;

	private final ErasureProperties properties;

	private final Clock clock;

	private final List<RecordKind> kinds;

	ErasureWorker(ErasureRepository erasures, ErasureProperties properties, Clock clock, List<RecordKind> kinds) {
		super(properties.pollInterval(), "look for pending erasures");
		this.erasures = erasures;
		this.properties = properties;
		this.clock = clock;
		this.kinds = kinds;
	}

	/** One round: every pending erasure carried as far as it can be now. */
	@Override
	public Mono<Void> sweep() {
		return this.erasures.pending(PENDING_PER_ROUND).concatMap(this::carryOut).then();
	}

	private Mono<ErasureRow> carryOut(ErasureRow erasure) {
		int batch = this.properties.batchSize();
		return this.erasures.settled(erasure)
			.filter(Boolean::booleanValue)
			.flatMap((settled) -> Flux.fromIterable(this.kinds)
				.concatMap((kind) -> drain(() -> this.erasures.deleteRecords(erasure, kind, batch)))
				.then(drain(() -> this.erasures.deleteChanges(erasure, batch)))
				// the time of completion, read when the last batch is done, not when the
				// round was put together
				.then(Mono.defer(() -> this.erasures.complete(erasure, this.clock.instant()))))
			.onErrorResume((failure) -> {
				log.warn("Erasure " + erasure.id() + " could not go on yet (it is retried): " + failure);
				return Mono.empty();
			});
	}

	/**
	 * Runs {@code step} until a run deletes fewer rows than a full batch, with the pause
	 * between two runs.
	 */
	private Mono<Void> drain(Supplier<Mono<Long>> step) {
		return BatchedDeletes.untilDone(step, this.properties.batchSize(), this.properties.batchPause()).then();
	}

}
