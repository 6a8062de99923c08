package com.healthpartner.api.ratelimit;

import java.time.Clock;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import com.healthpartner.api.access.KeyLookupGate;

/**
 * The rate limits outside a running application, on the in-memory limiter and the given
 * clock, for fast tests.
 */
public final class TestRateLimits {

	private final RateLimits limits;

	private final UsedUpAddresses usedUp;

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	public TestRateLimits(Clock clock, int anonymousPerMinute) {
		RateLimitProperties properties = new RateLimitProperties("default=60,enterprise=300", anonymousPerMinute, 10,
				"local", "");
		Policies policies = new Policies(new Plans(properties), properties);
		ClientAddresses addresses = new ClientAddresses(properties);
		DecisionCounters counters = new DecisionCounters(this.meters);
		this.usedUp = new UsedUpAddresses(counters, policies, addresses, clock);
		this.limits = new RateLimits(new LocalRateLimiter(clock), policies, addresses, this.usedUp, counters);
	}

	/** Where the limits' decisions are counted. */
	public SimpleMeterRegistry meters() {
		return this.meters;
	}

	public RateLimits limits() {
		return this.limits;
	}

	/** The gate the key check asks before a look-up. */
	public KeyLookupGate gate() {
		return this.usedUp;
	}

}
