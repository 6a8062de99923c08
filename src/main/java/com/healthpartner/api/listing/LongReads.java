package com.healthpartner.api.listing;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.transaction.support.DefaultTransactionDefinition;

import com.healthpartner.api.system.DatabaseProperties;

/**
 * Runs a streaming read (an NDJSON export) in a read-only transaction with its own time
 * limits. PostgreSQL's {@code statement_timeout} covers a fetched-in-batches query from
 * its first batch to its last, so the few seconds that bound every other statement would
 * cut off a large export; the export gets a longer bound instead.
 * <p>
 * Neither that bound nor {@code idle_in_transaction_session_timeout} ends an export whose
 * client stops reading but keeps its connection open: between two batches the driver
 * leaves the portal suspended without a Sync, and PostgreSQL counts a session waiting for
 * the next Execute as active, not idle in its transaction, and ignores a statement
 * timeout while it waits for the client. Such an export would hold its pool connection
 * for as long as the client keeps its socket, so the service ends it itself when no row
 * has been taken for {@code app.database.export-idle-timeout}: the transaction rolls back
 * and the connection returns to the pool.
 */
@Component
public class LongReads {

	private final TransactionalOperator readOnly;

	private final DatabaseClient db;

	private final String statementTimeoutMillis;

	private final Duration idleTimeout;

	LongReads(ReactiveTransactionManager transactions, DatabaseClient db, DatabaseProperties database) {
		DefaultTransactionDefinition definition = new DefaultTransactionDefinition(
				TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		definition.setReadOnly(true);
		this.readOnly = TransactionalOperator.create(transactions, definition);
		this.db = db;
		this.statementTimeoutMillis = String.valueOf(database.exportTimeout().toMillis());
		this.idleTimeout = database.exportIdleTimeout();
	}

	public <T> Flux<T> stream(Flux<T> query) {
		// set_config(..., true) is SET LOCAL: both end with the transaction. The idle
		// limit holds while the session really is idle in the transaction (between
		// statements), should the service stop talking to it there.
		Flux<T> rows = this.readOnly.execute((status) -> this.db.sql("""
				select set_config('statement_timeout', :statement, true),
				       set_config('idle_in_transaction_session_timeout', :idle, true)
				""")
			.bind("statement", this.statementTimeoutMillis)
			.bind("idle", String.valueOf(this.idleTimeout.toMillis()))
			.then()
			.thenMany(query));
		// the first row is the database's work, bounded by the statement timeout; each
		// later one waits for the client to take the previous ones
		return rows.timeout(Mono.never(), (row) -> Mono.delay(this.idleTimeout))
			.onErrorMap(TimeoutException.class, (timeout) -> new StalledExportException(this.idleTimeout));
	}

	/** An export ended because its client took no row for the idle timeout. */
	static final class StalledExportException extends RuntimeException {

		StalledExportException(Duration idleTimeout) {
			super("NDJSON export ended: its client took no record for " + idleTimeout.toSeconds() + " s", null, false,
					false);
		}

	}

}
