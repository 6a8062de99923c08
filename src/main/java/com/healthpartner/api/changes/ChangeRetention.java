package com.healthpartner.api.changes;

import java.time.Clock;
import java.time.Duration;

import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.system.BatchedDeletes;
import com.healthpartner.api.system.PeriodicSweep;

/**
 * Deletes changes older than the retention every minute: first the bound below which
 * changes are no longer kept moves (so an older cursor gets {@code 410} from then on),
 * then the changes below it go in batches, each its own short statement. Any instance may
 * run it at the same time as another: both delete what is there.
 */
@Component
class ChangeRetention extends PeriodicSweep {

	private final ChangeRepository changes;

	private final ChangesProperties properties;

	private final Clock clock;

	ChangeRetention(ChangeRepository changes, ChangesProperties properties, Clock clock) {
		super(Duration.ofMinutes(1), "delete old changes");
		this.changes = changes;
		this.properties = properties;
		this.clock = clock;
	}

	@Override
	public Mono<Long> sweep() {
		return sweep(this.clock.instant().minus(this.properties.retention()));
	}

	/** Deletes the changes older than {@code before}; returns how many. */
	Mono<Long> sweep(java.time.Instant before) {
		int batch = this.properties.retentionBatch();
		return this.changes.keepFrom(before)
			.flatMap((keptFrom) -> BatchedDeletes.untilDone(() -> this.changes.deleteBefore(keptFrom, batch), batch,
					Duration.ZERO));
	}

}
