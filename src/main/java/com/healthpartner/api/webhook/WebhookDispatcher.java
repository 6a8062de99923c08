package com.healthpartner.api.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import com.healthpartner.api.system.PeriodicSweep;
import com.healthpartner.api.web.CpuLoad;

/**
 * Sends the change feed to the endpoints (docs/design.md, Webhooks): every sweep leases
 * enabled endpoints, reads the changes committed after each one's position, sends them
 * ({@link WebhookSender#sendFeed}) and records them as deliveries with their outcomes in
 * the statement that moves the position; while changes keep coming it goes on at once.
 * While partners' requests fill the cores ({@link CpuLoad}) its statements take
 * {@code APP_WEBHOOKS_BUSY_SHARE} of the time (a chunk whose statements took {@code t}
 * lasts at least {@code t / share}, its sending included, before the next is read; the
 * pause ends early at the first poll interval that finds no request under way): the
 * changes wait in the feed, and the writes that make them keep the cores and the
 * database. While the requests leave room it goes at its own pace.
 */
final class WebhookDispatcher extends PeriodicSweep {

	/** Endpoints one statement leases, and changes read per endpoint. */
	private static final int WEBHOOKS = 100;

	private static final int CHANGES = 1000;

	private final WebhookRepository webhooks;

	private final WebhookSender sender;

	private final Clock clock;

	private final BooleanSupplier saturated;

	private final BooleanSupplier requestsUnderWay;

	private final double busyShare;

	WebhookDispatcher(WebhookRepository webhooks, WebhookSender sender, Duration period, Clock clock,
			BooleanSupplier saturated, BooleanSupplier requestsUnderWay, double busyShare) {
		super(period, "send the change feed to webhook endpoints");
		this.webhooks = webhooks;
		this.sender = sender;
		this.clock = clock;
		this.saturated = saturated;
		this.requestsUnderWay = requestsUnderWay;
		this.busyShare = busyShare;
	}

	@Override
	public Mono<?> sweep() {
		return dispatch().expand((read) -> (read > 0) ? dispatch() : Mono.empty()).then();
	}

	/**
	 * One chunk read, sent and recorded, after the pause the last one calls for; how many
	 * messages it read.
	 */
	private Mono<Integer> dispatch() {
		return Mono.defer(() -> {
			long started = System.nanoTime();
			Instant now = this.clock.instant();
			Instant lease = this.sender.lease(now);
			return this.webhooks.read(WEBHOOKS, CHANGES, now, lease).collectList().flatMap((messages) -> {
				long reading = System.nanoTime() - started;
				if (messages.isEmpty()) {
					return Mono.just(0);
				}
				return this.sender.sendFeed(messages, lease).flatMap((recording) -> {
					if (this.busyShare >= 1 || !this.saturated.getAsBoolean()) {
						return Mono.just(messages.size());
					}
					// the statements' share of the chunk's whole time, sending included
					long pause = (long) ((reading + recording) / this.busyShare) - (System.nanoTime() - started);
					return (pause > 0) ? yieldFor(Duration.ofNanos(pause), this.requestsUnderWay, period())
						.thenReturn(messages.size()) : Mono.just(messages.size());
				});
			});
		});
	}

	/**
	 * A pause of {@code pause} while requests are under way ({@code requestsUnderWay}),
	 * looked at every {@code step}: it ends at the first look that finds none, so that a
	 * pause decided under load does not hold the messages back once the instance has
	 * nothing else to do. Not at the first look that finds the cores with a little room:
	 * under a steady load their use dips below the mark now and then, and the messages
	 * would take back what the share keeps for the writes.
	 */
	static Mono<Void> yieldFor(Duration pause, BooleanSupplier requestsUnderWay, Duration step) {
		return Flux.interval(step).takeUntil((tick) -> !requestsUnderWay.getAsBoolean()).take(pause).then();
	}

}
