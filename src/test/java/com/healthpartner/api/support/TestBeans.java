package com.healthpartner.api.support;

import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.access.Scopes;

/**
 * Beans every full-application test shares: a clock tests can move, a route declared here
 * to prove the per-route scope check independently of the health routes, and the write
 * whose stored rows tests count (to show what a refused request did not store).
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestBeans {

	public static final String SCOPED_PATH = "/api/v1/test/needs-metrics-write";

	/**
	 * A keyed write whose stored rows a test can count: a metrics record of the user
	 * {@code marker} ({@link #writeBody}), counted by {@link #writes}.
	 */
	public static final String WRITE_PATH = "/api/v1/health/metrics";

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

	/** A valid metrics record of the user {@code marker}. */
	public static String writeBody(String marker) {
		return "{\"user_id\":\"" + marker + "\",\"metrics\":{\"weight\":70}}";
	}

	/** How many records of the user {@code marker} are stored (of any partner). */
	public static Mono<Long> writes(DatabaseClient db, String marker) {
		return db.sql("select count(*) from metric_records where user_id = :marker")
			.bind("marker", marker)
			.map((row) -> row.get(0, Long.class))
			.one();
	}

}
