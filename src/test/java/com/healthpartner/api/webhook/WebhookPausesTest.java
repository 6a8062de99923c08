package com.healthpartner.api.webhook;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * The dispatcher's pause between chunks while partners' requests fill the cores: it lasts
 * as long as the busy share asks while the cores stay full, and ends at the first poll
 * interval that finds them with room, so that messages do not wait out a pause decided in
 * a moment of load.
 */
class WebhookPausesTest {

	private static final Duration POLL = Duration.ofMillis(100);

	@Test
	void aPauseLastsItsWholeLengthWhileRequestsKeepComing() {
		StepVerifier.withVirtualTime(() -> WebhookDispatcher.yieldFor(Duration.ofSeconds(10), () -> true, POLL))
			.expectSubscription()
			.expectNoEvent(Duration.ofMillis(9_999))
			.thenAwait(Duration.ofMillis(1))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void aPauseEndsAtTheFirstPollIntervalThatFindsNoRequestUnderWay() {
		AtomicBoolean underWay = new AtomicBoolean(true);
		StepVerifier.withVirtualTime(() -> WebhookDispatcher.yieldFor(Duration.ofSeconds(10), underWay::get, POLL))
			.expectSubscription()
			.expectNoEvent(Duration.ofMillis(1_050))
			.then(() -> underWay.set(false))
			.expectNoEvent(Duration.ofMillis(49))
			.thenAwait(Duration.ofMillis(1))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void aPauseShorterThanThePollIntervalEndsOnTime() {
		StepVerifier.withVirtualTime(() -> WebhookDispatcher.yieldFor(Duration.ofMillis(30), () -> true, POLL))
			.expectSubscription()
			.expectNoEvent(Duration.ofMillis(29))
			.thenAwait(Duration.ofMillis(1))
			.expectComplete()
			.verify(Duration.ofSeconds(5));
	}

}
