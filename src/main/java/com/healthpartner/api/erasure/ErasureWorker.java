package com.healthpartner.api.erasure;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import com.healthpartner.api.records.RecordKind;

/**
 * Carries out pending erasures, whichever instance accepted them, so that an erasure
 * survives a restart: it looks for them in the table every poll interval, and at once
 * when this instance accepts one. Each erasure is deleted batch by batch (records, then
 * the user's earlier changes), each batch its own short statement, and completed once
 * nothing it covers is left. Two instances working on one erasure delete disjoint rows
 * (locked rows are skipped) and complete it once.
 */
@Component
class ErasureWorker implements SmartLifecycle {

	private static final Log log = LogFactory.getLog(ErasureWorker.class);

	private static final int PENDING_PER_ROUND = 100;

	private final ErasureRepository erasures;

	private final ErasureProperties properties;

	private final Clock clock;

	private final List<RecordKind> kinds;

	private final Sinks.Many<Boolean> wakeUps = Sinks.many().multicast().directBestEffort();

	private volatile Disposable working;

	ErasureWorker(ErasureRepository erasures, ErasureProperties properties, Clock clock, List<RecordKind> kinds) {
		this.erasures = erasures;
		this.properties = properties;
		this.clock = clock;
		this.kinds = kinds;
	}

	/** Starts a round soon (an erasure was just accepted here). */
	void wake() {
		this.wakeUps.tryEmitNext(Boolean.TRUE);
	}

	/** One round: every pending erasure carried as far as it can be now. */
	Mono<Void> round() {
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
		int batch = this.properties.batchSize();
		return Mono.defer(step)
			.expand((deleted) -> (deleted < batch) ? Mono.empty()
					: Mono.defer(step).delaySubscription(this.properties.batchPause()))
			.then();
	}

	@Override
	public void start() {
		this.working = Flux
			.merge(Flux.interval(this.properties.pollInterval()).map((tick) -> Boolean.TRUE), this.wakeUps.asFlux())
			.onBackpressureDrop()
			.concatMap((tick) -> round().onErrorResume((failure) -> {
				log.debug("Could not look for pending erasures yet: " + failure);
				return Mono.empty();
			}), 1)
			.subscribe();
	}

	@Override
	public void stop() {
		Disposable current = this.working;
		if (current != null) {
			current.dispose();
		}
	}

	@Override
	public boolean isRunning() {
		Disposable current = this.working;
		return current != null && !current.isDisposed();
	}

}
