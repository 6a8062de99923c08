package com.healthpartner.api.web;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.stereotype.Component;

/**
 * {@code http_server_requests_seconds}: the latency histogram of every answer, by method,
 * route pattern ({@code uri}), status, outcome and exception, with the names and tags
 * Spring Boot's own instrumentation gives it. Spring Boot's per-request observation is
 * switched off ({@code management.observations.enable.http.server.requests=false}): it
 * built a context, a key-value set and a long-task timer sample for every request, where
 * the timer of a route and status is looked up here once and then only records.
 */
@Component
public class RequestMetrics {

	private final MeterRegistry registry;

	private final Map<Key, Timer> timers = new ConcurrentHashMap<>();

	RequestMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Records one answer; {@code pattern} is the matched route's pattern or null,
	 * {@code exception} the simple name of an unhandled failure or null.
	 */
	void record(String method, String pattern, int status, String exception, long nanos) {
		Key key = new Key(method, uri(pattern, status), status, (exception != null) ? exception : "none");
		Timer timer = this.timers.get(key);
		if (timer == null) {
			timer = this.timers.computeIfAbsent(key, this::register);
		}
		timer.record(nanos, TimeUnit.NANOSECONDS);
	}

	private Timer register(Key key) {
		return Timer.builder("http.server.requests")
			.description("Duration of HTTP server request handling")
			.tag("error", key.exception())
			.tag("exception", key.exception())
			.tag("method", key.method())
			.tag("outcome", outcome(key.status()))
			.tag("status", Integer.toString(key.status()))
			.tag("uri", key.uri())
			.register(this.registry);
	}

	private static String uri(String pattern, int status) {
		if (pattern != null) {
			return (pattern.isEmpty() || pattern.equals("/")) ? "root" : pattern;
		}
		if (status >= 300 && status < 400) {
			return "REDIRECTION";
		}
		return (status == 404) ? "NOT_FOUND" : "UNKNOWN";
	}

	private static String outcome(int status) {
		if (status < 200) {
			return "INFORMATIONAL";
		}
		if (status < 300) {
			return "SUCCESS";
		}
		if (status < 400) {
			return "REDIRECTION";
		}
		return (status < 500) ? "CLIENT_ERROR" : "SERVER_ERROR";
	}

	private record Key(String method, String uri, int status, String exception) {
	}

}
