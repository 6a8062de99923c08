package com.healthpartner.api.changes;

import java.time.Clock;
import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Deletes changes older than the retention every minute: first the bound below which
 * changes are no longer kept moves (so an older cursor gets {@code 410} from then on),
 * then the changes below it go in batches, each its own short statement. Any instance may
 * run it at the same time as another: both delete what is there.
 */
@Component
class ChangeRetention implements SmartLifecycle {

	private static final Duration EVERY = Duration.ofMinutes(1);

	private static final Log log = LogFactory.getLog(ChangeRetention.class);

	private final ChangeRepository changes;

	private final ChangesProperties properties;

	private final Clock clock;

	private volatile Disposable sweeping;

	ChangeRetention(ChangeRepository changes, ChangesProperties properties, Clock clock) {
		this.changes = changes;
		this.properties = properties;
		this.clock = clock;
	}

	/** One sweep; returns how many changes it deleted. */
	Mono<Long> sweep() {
		return sweep(this.clock.instant().minus(this.properties.retention()));
	}

	/** Deletes the changes older than {@code before}; returns how many. */
	Mono<Long> sweep(java.time.Instant before) {
		int batch = this.properties.retentionBatch();
		return this.changes.keepFrom(before)
			.flatMap((keptFrom) -> this.changes.deleteBefore(keptFrom, batch)
				.expand((deleted) -> (deleted < batch) ? Mono.empty() : this.changes.deleteBefore(keptFrom, batch))
				.reduce(0L, Long::sum));
	}

	@Override
	public void start() {
		this.sweeping = Flux.interval(EVERY)
			.onBackpressureDrop()
			.concatMap((tick) -> sweep().onErrorResume((failure) -> {
				log.debug("Could not delete old changes yet: " + failure);
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
