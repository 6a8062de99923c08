package com.healthpartner.api.web;

import java.time.Duration;

import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.system.PeriodicSweep;

/**
 * How busy this instance has been with partners' requests lately: the share of the last
 * second or so during which a request of {@code /api} or {@code /admin} was being handled
 * ({@link InFlightRequests}), from 0 (none) to 1 (always one). Background work (imports)
 * yields in proportion to it. Whether a request is under way at one instant is a poor
 * guide: a client polling an import's status five times a second caught by chance made a
 * lone import pause as if the instance were saturated.
 * <p>
 * Sampled every {@value #SAMPLE_MILLIS} ms, a {@link PeriodicSweep} (not counted at each
 * request's start and end, which would cost every request more than a counter) into an
 * exponentially weighted average over about {@value #WINDOW_MILLIS} ms.
 */
@Component
public class RequestLoad extends PeriodicSweep {

	static final long SAMPLE_MILLIS = 10;

	static final long WINDOW_MILLIS = 1000;

	private static final double WEIGHT = (double) SAMPLE_MILLIS / WINDOW_MILLIS;

	private final InFlightRequests requests;

	/** Written by the sampler only. */
	private volatile double busy;

	public RequestLoad(InFlightRequests requests) {
		super(Duration.ofMillis(SAMPLE_MILLIS), "sample the request load");
		this.requests = requests;
	}

	/** The share of the recent time during which requests were being handled, 0 to 1. */
	public double busy() {
		return this.busy;
	}

	/** One sample: whether a request is being handled now. */
	void sample() {
		double now = (this.requests.handling() > 0) ? 1 : 0;
		this.busy = this.busy + (now - this.busy) * WEIGHT;
	}

	@Override
	public Mono<?> sweep() {
		return Mono.fromRunnable(this::sample);
	}

}
