package com.healthpartner.api.webhook;

import java.time.Clock;
import java.time.Duration;
import java.util.function.IntSupplier;

import reactor.core.publisher.Mono;

import com.healthpartner.api.system.PeriodicSweep;

/**
 * Turns the change feed into deliveries (docs/design.md, Webhooks): every sweep moves
 * each enabled endpoint's position past the changes committed since, writing a delivery
 * for each it asks for, in the statement that moves the position; while changes keep
 * coming it goes on at once, and new deliveries wake the sender. While the service
 * answers requests it works {@code APP_WEBHOOKS_BUSY_SHARE} of the time (a statement that
 * took {@code t} is followed by a pause of {@code t * (1 / share - 1)}): the changes wait
 * in the feed, and the writes that make them keep the database.
 */
final class WebhookDispatcher extends PeriodicSweep {

	/** Endpoints one statement moves, and changes per endpoint. */
	private static final int WEBHOOKS = 100;

	private static final int CHANGES = 1000;

	private final WebhookRepository webhooks;

	private final WebhookSender sender;

	private final Clock clock;

	private final IntSupplier requests;

	private final double busyShare;

	WebhookDispatcher(WebhookRepository webhooks, WebhookSender sender, Duration period, Clock clock,
			IntSupplier requests, double busyShare) {
		super(period, "turn changes into webhook deliveries");
		this.webhooks = webhooks;
		this.sender = sender;
		this.clock = clock;
		this.requests = requests;
		this.busyShare = busyShare;
	}

	@Override
	public Mono<?> sweep() {
		return dispatch().expand((read) -> (read > 0) ? dispatch() : Mono.empty()).then();
	}

	/**
	 * One statement, after the pause the last one calls for; how many changes it read.
	 */
	private Mono<Long> dispatch() {
		return Mono.defer(() -> {
			long started = System.nanoTime();
			return this.webhooks.dispatch(WEBHOOKS, CHANGES, this.clock.instant()).flatMap((read) -> {
				if (read > 0) {
					this.sender.wake();
				}
				if (read == 0 || this.busyShare >= 1 || this.requests.getAsInt() == 0) {
					return Mono.just(read);
				}
				long pause = (long) ((System.nanoTime() - started) * (1 / this.busyShare - 1));
				return Mono.delay(Duration.ofNanos(pause)).thenReturn(read);
			});
		});
	}

}
