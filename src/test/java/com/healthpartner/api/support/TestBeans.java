package com.healthpartner.api.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.access.Scopes;

/**
 * Beans every full-application test shares: a clock tests can move, and a route declared
 * here to prove the per-route scope check independently of the health routes.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestBeans {

	public static final String SCOPED_PATH = "/api/v1/test/needs-metrics-write";

	@Bean
	@Primary
	MutableClock testClock() {
		return new MutableClock();
	}

	@Bean
	RouterFunction<ServerResponse> scopedTestRoute() {
		return RouterFunctions.route()
			.GET(SCOPED_PATH,
					(request) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue("{\"ok\":true}"))
			.filter(Scopes.require(Scope.METRICS_WRITE))
			.build();
	}

}
