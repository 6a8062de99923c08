package com.healthpartner.api.system;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.SmartLifecycle;

/**
 * Background clean-up that runs one sweep every {@code period} while the application
 * runs: a sweep still running when the next is due makes that one skip, and a sweep that
 * fails is logged at {@code DEBUG} and tried again next time (another instance may be
 * doing the same work, or the database may be away for a while).
 */
public abstract class PeriodicSweep implements SmartLifecycle {

	private static final Log log = LogFactory.getLog(PeriodicSweep.class);

	private final Duration period;

	private final String what;

	private volatile Disposable sweeping;

	/**
	 * @param period the time between two sweeps
	 * @param what what a sweep deletes, for the log ("expired idempotency keys")
	 */
	protected PeriodicSweep(Duration period, String what) {
		this.period = period;
		this.what = what;
	}

	/** One sweep; completes with how many rows it deleted. */
	public abstract Mono<Long> sweep();

	@Override
	public void start() {
		this.sweeping = Flux.interval(this.period)
			.onBackpressureDrop()
			.concatMap((tick) -> sweep().onErrorResume((failure) -> {
				log.debug("Could not delete " + this.what + " yet: " + failure);
				return Mono.empty();
			}))
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
