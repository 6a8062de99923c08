package com.healthpartner.api.support;

import java.time.Duration;
import java.util.Map;

import reactor.core.publisher.Flux;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * The plan PostgreSQL chooses for a query, as JSON text. Sequential and bitmap scans are
 * switched off for that transaction only, which leaves the planner an index if, and only
 * if, one fits the query.
 */
public final class QueryPlans {

	private final DatabaseClient db;

	private final TransactionalOperator transaction;

	public QueryPlans(DatabaseClient db, TransactionalOperator transaction) {
		this.db = db;
		this.transaction = transaction;
	}

	public String explain(String sql, Map<String, Object> binds) {
		Flux<String> plan = this.db.sql("set local enable_seqscan = off")
			.then()
			.then(this.db.sql("set local enable_bitmapscan = off").then())
			.thenMany(this.db.sql("explain (format json) " + sql)
				.bindValues(binds)
				.map((row) -> row.get(0, String.class))
				.all());
		return String.join("\n", plan.as(this.transaction::transactional).collectList().block(Duration.ofSeconds(10)));
	}

}
