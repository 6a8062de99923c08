package com.healthpartner.api.system;

import java.time.Duration;
import java.time.Instant;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.context.SmartLifecycle;

/**
 * Writes what a component has gathered in memory every period, so that the request path
 * never waits for that write. On stop, a write under way is never cancelled (its batch
 * would be lost): the ticks end, the write under way finishes, one last write takes what
 * is left. It stops after the web server has drained its in-flight requests (a lower
 * phase than the server's), so what they gathered is written too.
 */
public abstract class PeriodicFlush implements SmartLifecycle {

	private static final Log log = LogFactory.getLog(PeriodicFlush.class);

	private final Duration period;

	/**
	 * Longer than one write's deadline, so that the last write can run out on its own.
	 */
	private final Duration lastWriteWait;

	private volatile Sinks.Empty<Void> stopping;

	private volatile boolean failedThisRound;

	private volatile Instant failingSince;

	private volatile Mono<Void> finished;

	/**
	 * Writes every {@code period}; a write takes at most {@code writeDeadline}
	 * ({@code APP_DATABASE_STATEMENT_DEADLINE}) before it counts as failed and what it
	 * held is kept for the next time: a database that stops answering (frozen, or the
	 * network to it gone without a reset) would otherwise hold a write, and every later
	 * one, forever, since the statement time limit is enforced by that same database.
	 */
	protected PeriodicFlush(Duration period, Duration writeDeadline) {
		this.period = period;
		this.lastWriteWait = writeDeadline.plusSeconds(5);
	}

	/**
	 * Writes what was gathered so far; keeps what could not be written for the next time.
	 */
	protected abstract Mono<Void> flush();

	@Override
	public void start() {
		Sinks.Empty<Void> stop = Sinks.empty();
		Sinks.Empty<Void> done = Sinks.empty();
		Flux.interval(this.period)
			.onBackpressureDrop()
			.takeUntilOther(stop.asMono())
			.concatMap((tick) -> round(), 1)
			.then(Mono.defer(this::round))
			.doFinally((signal) -> done.tryEmitEmpty())
			.subscribe(null,
					(failure) -> log.error("Periodic write of " + getClass().getSimpleName() + " failed", failure));
		this.stopping = stop;
		this.finished = done.asMono();
	}

	/**
	 * One write: whether it failed is what {@link #failed} said during it. A write that
	 * throws is logged and counts as failed; the next period tries again.
	 */
	private Mono<Void> round() {
		return Mono.defer(() -> {
			this.failedThisRound = false;
			return flush();
		}).onErrorResume((failure) -> {
			log.error("Periodic write of " + getClass().getSimpleName() + " failed", failure);
			failed(failure);
			return Mono.empty();
		}).doOnSuccess((done) -> {
			Instant since = this.failingSince;
			if (!this.failedThisRound && since != null) {
				this.failingSince = null;
				log.info(getClass().getSimpleName() + " writes again (its writes failed from " + since + ")");
			}
		});
	}

	/**
	 * Says that the write under way could not write what it held (kept for the next
	 * time): the writer counts as failing until a write succeeds.
	 */
	protected void failed(Throwable failure) {
		this.failedThisRound = true;
		if (this.failingSince == null) {
			this.failingSince = Instant.now();
			log.warn(getClass().getSimpleName() + " cannot write (" + failure
					+ "); it keeps what it gathered and tries again every " + this.period.toMillis() + " ms");
		}
	}

	/** Since when this writer's writes fail, or null while they succeed. */
	public Instant failingSince() {
		return this.failingSince;
	}

	@Override
	public void stop(Runnable callback) {
		Sinks.Empty<Void> stop = this.stopping;
		Mono<Void> done = this.finished;
		if (stop == null || done == null) {
			callback.run();
			return;
		}
		this.stopping = null;
		stop.tryEmitEmpty();
		done.timeout(this.lastWriteWait).onErrorResume((failure) -> Mono.empty()).doFinally((signal) -> {
			try {
				stopped();
			}
			finally {
				callback.run();
			}
		}).subscribe();
	}

	/**
	 * Called once the last write has finished or was given up on; what was not written by
	 * then is lost.
	 */
	protected void stopped() {
	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	@Override
	public boolean isRunning() {
		return this.stopping != null;
	}

	/**
	 * After the web server has finished its in-flight requests and stopped: Spring Boot
	 * shuts the server down gracefully in phase {@code DEFAULT_PHASE - 1024} and stops it
	 * in {@code DEFAULT_PHASE - 2048}; lower phases stop later.
	 */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 3072;
	}

}
