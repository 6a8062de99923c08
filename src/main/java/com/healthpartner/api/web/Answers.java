package com.healthpartner.api.web;

import java.time.Instant;

import org.springframework.stereotype.Component;

/**
 * What is recorded of every answer when it ends: its access log line and its latency. The
 * web layer's answers are recorded by {@link EdgeFilter}; the few the HTTP edge gives
 * before the web layer takes a request up (a used-up plan's {@code 429}) through
 * {@link #answeredAtEdge}, so that they are logged and measured alike.
 */
@Component
public class Answers {

	private final AccessLog accessLog;

	private final RequestMetrics metrics;

	Answers(AccessLog accessLog, RequestMetrics metrics) {
		this.accessLog = accessLog;
		this.metrics = metrics;
	}

	/**
	 * A request answered at the HTTP edge, without a route: logged and measured as an
	 * unmatched one, as the web layer does with a request refused before routing.
	 */
	public void answeredAtEdge(String requestId, String method, String path, int status, String partnerId,
			long startNanos) {
		ended(requestId, method, null, path, status, null, partnerId, startNanos);
	}

	/**
	 * Records an answer that ended: {@code pattern} is the matched route's or null,
	 * {@code exception} the simple name of an unhandled failure or null,
	 * {@code partnerId} the partner the key belongs to or null.
	 */
	void ended(String requestId, String method, String pattern, String path, int status, String exception,
			String partnerId, long startNanos) {
		long nanos = System.nanoTime() - startNanos;
		this.metrics.record(method, pattern, status, exception, nanos);
		this.accessLog.record(new AccessLog.Entry(Instant.now(), Thread.currentThread().getName(), requestId, method,
				(pattern != null) ? pattern : "UNMATCHED", path, status, (partnerId != null) ? partnerId : "-",
				nanos / 1_000_000));
	}

}
