package com.healthpartner.api.web;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;

import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import com.healthpartner.api.system.PeriodicSweep;

/**
 * Whether partners' requests leave this instance's cores any room: saturated while a
 * request is being handled ({@link InFlightRequests}) and the machine's (or container's)
 * CPU was at least {@value #SATURATED} busy over the last sample. Background work that
 * must not slow the requests (webhooks) yields while saturated and goes at its own pace
 * otherwise: an instance answering a thousand writes a second has a request under way at
 * almost every instant ({@link RequestLoad} near 1, like one at its limit), but most of
 * its cores free. Without requests the cores are the background work's own.
 * <p>
 * Sampled every {@value #SAMPLE_MILLIS} ms ({@link PeriodicSweep}): the machine's CPU
 * load since the last sample, as the JVM reads it from the operating system's counters
 * (the container's under a CPU limit).
 */
@Component
public class CpuLoad extends PeriodicSweep {

	static final double SATURATED = 0.9;

	static final long SAMPLE_MILLIS = 250;

	private final IntSupplier requests;

	private final DoubleSupplier machine;

	/** Written by the sampler only. */
	private volatile double load;

	@Autowired
	public CpuLoad(InFlightRequests requests) {
		this(requests::handling, operatingSystem());
	}

	CpuLoad(IntSupplier requests, DoubleSupplier machine) {
		super(Duration.ofMillis(SAMPLE_MILLIS), "sample the CPU load");
		this.requests = requests;
		this.machine = machine;
	}

	/** Whether requests are under way with the cores (nearly) full. */
	public boolean saturated() {
		return this.load >= SATURATED && requestsUnderWay();
	}

	/** Whether a request is under way at all. */
	public boolean requestsUnderWay() {
		return this.requests.getAsInt() > 0;
	}

	void sample() {
		double now = this.machine.getAsDouble();
		// negative while the operating system cannot tell: then the requests alone decide
		this.load = (now >= 0) ? now : 1;
	}

	@Override
	public Mono<?> sweep() {
		return Mono.fromRunnable(this::sample);
	}

	private static DoubleSupplier operatingSystem() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os::getCpuLoad;
		}
		return () -> -1;
	}

}
