package com.healthpartner.api.listing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

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
 * limit, longer than the few seconds that bound every other statement. An export whose
 * client stops reading but keeps its socket is ended here after
 * {@code app.database.export-idle-timeout} without a row taken (checked every tenth of
 * it): PostgreSQL counts a suspended portal as active and would never end it
 * (docs/design.md, NDJSON back-pressure and the export limits).
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
		// later one waits for the client to take the previous ones. A watchdog compares,
		// every tenth of the idle limit, the time the last row was taken with the limit:
		// a timer set and cancelled a row would cost more than the row.
		return Flux.defer(() -> {
			IdleWatch watch = new IdleWatch(this.idleTimeout);
			return rows.doOnNext(watch::taken)
				.takeUntilOther(Flux.interval(watch.checkEvery()).filter((tick) -> watch.stalled()))
				.concatWith(Mono.defer(
						() -> watch.ended() ? Mono.error(new StalledExportException(this.idleTimeout)) : Mono.empty()));
		});
	}

	/**
	 * When an export last took a row, and whether it has been idle for too long since.
	 */
	private static final class IdleWatch {

		private final long limitNanos;

		private final AtomicLong lastTaken = new AtomicLong();

		private volatile boolean ended;

		IdleWatch(Duration limit) {
			this.limitNanos = limit.toNanos();
		}

		Duration checkEvery() {
			return Duration.ofNanos(Math.max(this.limitNanos / 10, 100_000_000L));
		}

		void taken(Object row) {
			this.lastTaken.lazySet(System.nanoTime());
		}

		/** True, once, when a row was taken and none since for the limit. */
		boolean stalled() {
			long last = this.lastTaken.get();
			if (last == 0 || System.nanoTime() - last < this.limitNanos) {
				return false;
			}
			this.ended = true;
			return true;
		}

		boolean ended() {
			return this.ended;
		}

	}

	/** An export ended because its client took no row for the idle timeout. */
	static final class StalledExportException extends RuntimeException {

		StalledExportException(Duration idleTimeout) {
			super("NDJSON export ended: its client took no record for " + idleTimeout.toSeconds() + " s", null, false,
					false);
		}

	}

}
