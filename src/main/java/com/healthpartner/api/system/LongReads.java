package com.healthpartner.api.system;

import java.time.Duration;

import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.transaction.support.DefaultTransactionDefinition;

/**
 * Runs a streaming read (an NDJSON export) in a read-only transaction with its own
 * statement timeout. PostgreSQL's {@code statement_timeout} covers a fetched-in-batches
 * query from its first batch to its last, so the few seconds that bound every other
 * statement would cut off a large export; the export gets a longer bound instead.
 */
@Component
public class LongReads {

	private final TransactionalOperator readOnly;

	private final DatabaseClient db;

	private final long timeoutMillis;

	LongReads(ReactiveTransactionManager transactions, DatabaseClient db,
			@Value("${app.database.export-timeout}") Duration timeout) {
		DefaultTransactionDefinition definition = new DefaultTransactionDefinition(
				TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		definition.setReadOnly(true);
		this.readOnly = TransactionalOperator.create(transactions, definition);
		this.db = db;
		this.timeoutMillis = timeout.toMillis();
	}

	public <T> Flux<T> stream(Flux<T> query) {
		// SET takes no bind parameters; the value is a number from configuration
		return this.readOnly.execute(
				(status) -> this.db.sql("set local statement_timeout = " + this.timeoutMillis).then().thenMany(query));
	}

}
