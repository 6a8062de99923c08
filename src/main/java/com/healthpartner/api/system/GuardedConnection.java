package com.healthpartner.api.system;

import java.time.Duration;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

import io.r2dbc.spi.Batch;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionMetadata;
import io.r2dbc.spi.IsolationLevel;
import io.r2dbc.spi.Readable;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Row;
import io.r2dbc.spi.RowMetadata;
import io.r2dbc.spi.Statement;
import io.r2dbc.spi.TransactionDefinition;
import io.r2dbc.spi.ValidationDepth;
import io.r2dbc.spi.Wrapped;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A pooled connection, lent for one use, that is closed instead of going back to its pool
 * when a statement or a transaction step on it was given up (a deadline, a client gone)
 * before the database had answered it. Such a connection still owes an answer it may
 * never give: after a database outage, r2dbc-postgresql connections given back in that
 * state made every later statement on them wait for ever, and the pool, which checks a
 * connection by its local state only, lent them again and again (docs/design.md, "Outages
 * and surges"). A statement given up after its first answer (a page's first row taken,
 * the rest not needed) leaves the connection usable: the driver reads the rest and drops
 * it.
 */
final class GuardedConnection implements Connection, Wrapped<Connection> {

	/** How long closing a given-up connection may take before it is left to the pool. */
	private static final Duration CLOSE_WAIT = Duration.ofSeconds(1);

	private final Connection pooled;

	private volatile boolean givenUp;

	GuardedConnection(Connection pooled) {
		this.pooled = pooled;
	}

	private void gaveUp() {
		this.givenUp = true;
	}

	/** A step that answers with its completion only: given up if cancelled before it. */
	private Publisher<Void> step(Publisher<Void> step) {
		return Mono.from(step).doOnCancel(this::gaveUp);
	}

	@Override
	public Publisher<Void> close() {
		if (!this.givenUp) {
			return this.pooled.close();
		}
		// the pool checks a connection it lends by its local state: a closed one is
		// replaced by a new one
		Connection physical = (this.pooled instanceof Wrapped<?> wrapped
				&& wrapped.unwrap() instanceof Connection inner) ? inner : null;
		Mono<Void> closePhysical = (physical != null)
				? Mono.from(physical.close()).timeout(CLOSE_WAIT).onErrorResume((failure) -> Mono.empty())
				: Mono.empty();
		return closePhysical.then(Mono.from(this.pooled.close()));
	}

	@Override
	public Statement createStatement(String sql) {
		return new GuardedStatement(this.pooled.createStatement(sql));
	}

	@Override
	public Batch createBatch() {
		Batch batch = this.pooled.createBatch();
		return new Batch() {

			@Override
			public Batch add(String sql) {
				batch.add(sql);
				return this;
			}

			@Override
			public Publisher<? extends Result> execute() {
				return results(batch.execute());
			}

		};
	}

	/**
	 * {@code answers}, given up if cancelled before its first element: a statement's
	 * results (the driver may emit a result before the database answers, so each result's
	 * rows or count are guarded too), a result's rows or count.
	 */
	private <T> Flux<T> answered(Publisher<T> answers) {
		return Flux.defer(() -> {
			boolean[] answered = { false };
			return Flux.from(answers).doOnNext((answer) -> answered[0] = true).doOnCancel(() -> {
				if (!answered[0]) {
					gaveUp();
				}
			});
		});
	}

	private Flux<Result> results(Publisher<? extends Result> results) {
		return answered(results).map(GuardedResult::new);
	}

	@Override
	public Publisher<Void> beginTransaction() {
		return step(this.pooled.beginTransaction());
	}

	@Override
	public Publisher<Void> beginTransaction(TransactionDefinition definition) {
		return step(this.pooled.beginTransaction(definition));
	}

	@Override
	public Publisher<Void> commitTransaction() {
		return step(this.pooled.commitTransaction());
	}

	@Override
	public Publisher<Void> rollbackTransaction() {
		return step(this.pooled.rollbackTransaction());
	}

	@Override
	public Publisher<Void> createSavepoint(String name) {
		return step(this.pooled.createSavepoint(name));
	}

	@Override
	public Publisher<Void> releaseSavepoint(String name) {
		return step(this.pooled.releaseSavepoint(name));
	}

	@Override
	public Publisher<Void> rollbackTransactionToSavepoint(String name) {
		return step(this.pooled.rollbackTransactionToSavepoint(name));
	}

	@Override
	public Publisher<Void> setAutoCommit(boolean autoCommit) {
		return step(this.pooled.setAutoCommit(autoCommit));
	}

	@Override
	public Publisher<Void> setLockWaitTimeout(Duration timeout) {
		return step(this.pooled.setLockWaitTimeout(timeout));
	}

	@Override
	public Publisher<Void> setStatementTimeout(Duration timeout) {
		return step(this.pooled.setStatementTimeout(timeout));
	}

	@Override
	public Publisher<Void> setTransactionIsolationLevel(IsolationLevel level) {
		return step(this.pooled.setTransactionIsolationLevel(level));
	}

	@Override
	public boolean isAutoCommit() {
		return this.pooled.isAutoCommit();
	}

	@Override
	public ConnectionMetadata getMetadata() {
		return this.pooled.getMetadata();
	}

	@Override
	public IsolationLevel getTransactionIsolationLevel() {
		return this.pooled.getTransactionIsolationLevel();
	}

	@Override
	public Publisher<Boolean> validate(ValidationDepth depth) {
		return this.pooled.validate(depth);
	}

	@Override
	public Connection unwrap() {
		return this.pooled;
	}

	/** A statement of this connection, given up if cancelled before its first answer. */
	private final class GuardedStatement implements Statement {

		private final Statement statement;

		GuardedStatement(Statement statement) {
			this.statement = statement;
		}

		@Override
		public Statement add() {
			this.statement.add();
			return this;
		}

		@Override
		public Statement bind(int index, Object value) {
			this.statement.bind(index, value);
			return this;
		}

		@Override
		public Statement bind(String name, Object value) {
			this.statement.bind(name, value);
			return this;
		}

		@Override
		public Statement bindNull(int index, Class<?> type) {
			this.statement.bindNull(index, type);
			return this;
		}

		@Override
		public Statement bindNull(String name, Class<?> type) {
			this.statement.bindNull(name, type);
			return this;
		}

		@Override
		public Statement returnGeneratedValues(String... columns) {
			this.statement.returnGeneratedValues(columns);
			return this;
		}

		@Override
		public Statement fetchSize(int rows) {
			this.statement.fetchSize(rows);
			return this;
		}

		@Override
		public Publisher<? extends Result> execute() {
			return results(this.statement.execute());
		}

	}

	/**
	 * A result whose rows or count, cancelled before the first, give the connection up.
	 */
	private final class GuardedResult implements Result {

		private final Result result;

		GuardedResult(Result result) {
			this.result = result;
		}

		@Override
		public Publisher<Long> getRowsUpdated() {
			return answered(this.result.getRowsUpdated());
		}

		@Override
		public <T> Publisher<T> map(BiFunction<Row, RowMetadata, ? extends T> mapping) {
			return answered(this.result.map(mapping));
		}

		@Override
		public <T> Publisher<T> map(Function<? super Readable, ? extends T> mapping) {
			return answered(this.result.map(mapping));
		}

		@Override
		public Result filter(Predicate<Segment> filter) {
			return new GuardedResult(this.result.filter(filter));
		}

		@Override
		public <T> Publisher<T> flatMap(Function<Segment, ? extends Publisher<? extends T>> mapping) {
			return answered(this.result.flatMap(mapping));
		}

	}

}
