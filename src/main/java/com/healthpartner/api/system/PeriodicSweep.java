package com.healthpartner.api.system;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.context.SmartLifecycle;

/**
 * Background work that runs one sweep every {@code period} while the application runs,
 * and soon after {@link #wake} (work was just accepted here): a sweep still running when
 * the next is due makes that one skip, and a sweep that fails is logged at {@code DEBUG}
 * and tried again next time (another instance may be doing the same work, or the database
 * may be away for a while). The clean-ups (old changes, expired keys) and the workers
 * that carry out erasures and imports run on it.
 */
public abstract class PeriodicSweep implements SmartLifecycle {

	private static final Log log = LogFactory.getLog(PeriodicSweep.class);

	private final Duration period;

	private final String what;

	private final Sinks.Many<Boolean> wakeUps = Sinks.many().multicast().directBestEffort();

	private volatile Disposable sweeping;

	/**
	 * @param period the time between two sweeps
	 * @param what what a sweep does, for the log ("delete expired idempotency keys")
	 */
	protected PeriodicSweep(Duration period, String what) {
		this.period = period;
		this.what = what;
	}

	/** One sweep. */
	public abstract Mono<?> sweep();

	/** The time between two sweeps. */
	protected final Duration period() {
		return this.period;
	}

	/** Runs a sweep soon, without waiting for the period. */
	public void wake() {
		this.wakeUps.tryEmitNext(Boolean.TRUE);
	}

	@Override
	public void start() {
		this.sweeping = Flux.merge(Flux.interval(this.period).map((tick) -> Boolean.TRUE), this.wakeUps.asFlux())
			.onBackpressureDrop()
			.concatMap((tick) -> sweep().onErrorResume((failure) -> {
				log.debug("Could not " + this.what + " yet: " + failure);
				return Mono.empty();
			}), 1)
			.subscribe();
	}

	@Override
	public void stop() {
		Disposable current = this.sweeping;
		if (current != null) {
			current.dispose();
		}
	}

	@Override
	public boolean isRunning() {
		Disposable current = this.sweeping;
		return current != null && !current.isDisposed();
	}

}
