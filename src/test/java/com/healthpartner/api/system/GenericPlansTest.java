package com.healthpartner.api.system;

import java.util.List;
import java.util.UUID;

import io.r2dbc.spi.Connection;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;

/**
 * The service's connections run every statement with its generic plan, from the first
 * execution on: PostgreSQL plans a statement once per connection, not again on every
 * execution whatever its statistics say.
 */
class GenericPlansTest extends IntegrationTest {

	private static final String STATEMENT = "select count(*) from partners where id = $1 and status = $2";

	@Autowired
	private DatabaseClient db;

	@Test
	void plansAStatementOnceAndReusesTheGenericPlan() {
		this.db.inConnection((connection) -> run(connection).then(run(connection)).then(plans(connection)))
			.as(StepVerifier::create)
			// in plan_cache_mode auto the first five executions would be custom plans
			.expectNext(List.of(2L, 0L))
			.verifyComplete();
	}

	private static Mono<Long> run(Connection connection) {
		return Flux
			.from(connection.createStatement(STATEMENT).bind("$1", UUID.randomUUID()).bind("$2", "active").execute())
			.flatMap((result) -> result.map((row) -> row.get(0, Long.class)))
			.single();
	}

	private static Mono<List<Long>> plans(Connection connection) {
		return Flux
			.from(connection
				.createStatement("select generic_plans, custom_plans from pg_prepared_statements where statement = $1")
				.bind("$1", STATEMENT)
				.execute())
			.flatMap((result) -> result.map((row) -> List.of(row.get(0, Long.class), row.get(1, Long.class))))
			.single();
	}

}
