package com.healthpartner.api.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import reactor.core.publisher.Mono;

import com.healthpartner.api.changes.ChangesProperties;
import com.healthpartner.api.system.BatchedDeletes;
import com.healthpartner.api.system.PeriodicSweep;

/**
 * Deletes the delivery log's finished deliveries (succeeded or given up) once they are as
 * old as the changes the feed keeps ({@code APP_CHANGES_RETENTION}, 30 days), and every
 * delivery of a deleted endpoint (whose {@code DELETE} removed the endpoint alone: its
 * log can be hundreds of thousands of rows), every minute, in batches, each its own short
 * statement: five endpoints make five rows per change, and a delivery whose change is
 * gone could not be sent again anyway. Open deliveries of an endpoint stay (a disabled
 * endpoint's wait for it to be enabled). Any instance may run it beside another: both
 * delete what is there.
 */
final class DeliveryRetention extends PeriodicSweep {

	/** How long a deleted endpoint's id is kept once its deliveries are gone. */
	private static final Duration FORGET_DELETED_AFTER = Duration.ofHours(1);

	private final WebhookRepository webhooks;

	private final ChangesProperties properties;

	private final Clock clock;

	DeliveryRetention(WebhookRepository webhooks, ChangesProperties properties, Clock clock) {
		super(Duration.ofMinutes(1), "delete old webhook deliveries");
		this.webhooks = webhooks;
		this.properties = properties;
		this.clock = clock;
	}

	@Override
	public Mono<Long> sweep() {
		Instant now = this.clock.instant();
		return sweep(now.minus(this.properties.retention()), now.minus(FORGET_DELETED_AFTER));
	}

	/**
	 * Deletes the finished deliveries made before {@code before} and the deliveries of
	 * deleted endpoints (forgetting those deleted before {@code forgetBefore} once none
	 * is left); returns how many deliveries.
	 */
	Mono<Long> sweep(Instant before, Instant forgetBefore) {
		int batch = this.properties.retentionBatch();
		return BatchedDeletes
			.untilDone(() -> this.webhooks.deleteLogsOfDeleted(forgetBefore, batch), batch, Duration.ZERO)
			.flatMap((ofDeleted) -> BatchedDeletes
				.untilDone(() -> this.webhooks.deleteFinishedBefore(before, batch), batch, Duration.ZERO)
				.map((finished) -> ofDeleted + finished));
	}

}
