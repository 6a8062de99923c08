package com.healthpartner.api.webhook;

import java.time.Clock;
import java.time.Duration;

import reactor.core.publisher.Mono;

import com.healthpartner.api.system.PeriodicSweep;

/**
 * Turns the change feed into deliveries (docs/design.md, Webhooks): every sweep moves
 * each enabled endpoint's position past the changes committed since, writing a delivery
 * for each it asks for, in the statement that moves the position; a full batch sweeps
 * again at once, and new deliveries wake the sender.
 */
final class WebhookDispatcher extends PeriodicSweep {

	/** Endpoints one statement moves, and changes per endpoint. */
	private static final int WEBHOOKS = 100;

	private static final int CHANGES = 1000;

	private final WebhookRepository webhooks;

	private final WebhookSender sender;

	private final Clock clock;

	WebhookDispatcher(WebhookRepository webhooks, WebhookSender sender, Duration period, Clock clock) {
		super(period, "turn changes into webhook deliveries");
		this.webhooks = webhooks;
		this.sender = sender;
		this.clock = clock;
	}

	@Override
	public Mono<?> sweep() {
		return this.webhooks.dispatch(WEBHOOKS, CHANGES, this.clock.instant())
			.expand((read) -> (read > 0) ? this.webhooks.dispatch(WEBHOOKS, CHANGES, this.clock.instant())
				.doOnNext((more) -> this.sender.wake()) : Mono.empty())
			.doOnNext((read) -> {
				if (read > 0) {
					this.sender.wake();
				}
			})
			.then();
	}

}
