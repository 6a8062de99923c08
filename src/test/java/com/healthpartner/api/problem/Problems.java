package com.healthpartner.api.problem;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.web.server.WebExceptionHandler;

import com.healthpartner.api.system.AppProperties;

/**
 * The service's problem handler outside a running application, for fast tests of routers
 * and filters that assert the problem+json a partner would get.
 */
public final class Problems {

	private Problems() {
	}

	public static final AppProperties PROPERTIES = new AppProperties("test-admin-token-0123456789",
			"MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=", "http://localhost:8080", 65536);

	public static WebExceptionHandler handler() {
		return new ProblemHandler(writer());
	}

	public static ProblemWriter writer() {
		return new ProblemWriter(PROPERTIES, new Rejections(new SimpleMeterRegistry()));
	}

}
