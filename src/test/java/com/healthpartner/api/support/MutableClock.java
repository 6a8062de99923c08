package com.healthpartner.api.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The service's clock in tests: the real time plus an offset a test may move forward, so
 * expiry and windows are tested without sleeping.
 */
public final class MutableClock extends Clock {

	private volatile Duration offset = Duration.ZERO;

	public void advance(Duration by) {
		this.offset = this.offset.plus(by);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

	@Override
	public Instant instant() {
		return Instant.now().plus(this.offset);
	}

}
