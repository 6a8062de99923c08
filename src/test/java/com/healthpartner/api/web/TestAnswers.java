package com.healthpartner.api.web;

import java.io.OutputStream;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.mock.env.MockEnvironment;

/**
 * {@link Answers} for tests outside this package: their access log lines in the
 * {@code prod} profile's JSON form, written to a stream while the log runs, their latency
 * timers in a registry.
 */
public final class TestAnswers {

	private TestAnswers() {
	}

	/** An access log writing to {@code out} once started; stopping it writes the rest. */
	public static AccessLog accessLog(OutputStream out, MeterRegistry meters) {
		return new AccessLog(new MockEnvironment().withProperty("logging.structured.format.console", "ecs")
			.withProperty("spring.application.name", "health-partner-api"), meters, out);
	}

	public static Answers to(AccessLog accessLog, MeterRegistry meters) {
		return new Answers(accessLog, new RequestMetrics(meters));
	}

}
