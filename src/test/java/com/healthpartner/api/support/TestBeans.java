package com.healthpartner.api.support;

import java.net.URI;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

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
import com.healthpartner.api.web.JsonBodies;

/**
 * Beans every full-application test shares: a clock tests can move, a route declared here
 * to prove the per-route scope check independently of the health routes, and a keyed
 * route that stores a row (so tests can show what a refused request did not store).
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestBeans {

	public static final String SCOPED_PATH = "/api/v1/test/needs-metrics-write";

	/**
	 * {@code POST {"marker": "..."}}: reads the body as the health routes do and stores a
	 * (rejected) registration with the email {@code <marker>@writes.test}; 201.
	 */
	public static final String WRITE_PATH = "/api/v1/test/writes";

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

	@Bean
	RouterFunction<ServerResponse> writingTestRoute(JsonBodies bodies, DatabaseClient db, Clock clock) {
		return RouterFunctions.route().POST(WRITE_PATH, (request) -> bodies.readObject(request).flatMap((body) -> {
			String marker = body.path("marker").asString("");
			UUID id = UUID.randomUUID();
			return db.sql("""
					insert into registrations (id, email, partner_name, status, created_at)
					values (:id, :email, 'test write', 'rejected', :at)
					""")
				.bind("id", id)
				.bind("email", marker + "@writes.test")
				.bind("at", clock.instant().truncatedTo(ChronoUnit.MILLIS))
				.then()
				.then(ServerResponse.created(URI.create(WRITE_PATH + "/" + id))
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(Map.of("marker", marker)));
		})).build();
	}

	/** How many rows the writing test route stored with this marker. */
	public static Mono<Long> writes(DatabaseClient db, String marker) {
		return db.sql("select count(*) from registrations where email = :email")
			.bind("email", marker + "@writes.test")
			.map((row) -> row.get(0, Long.class))
			.one();
	}

}
