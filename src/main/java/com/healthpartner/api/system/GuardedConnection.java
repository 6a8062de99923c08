package com.healthpartner.api.system;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

import io.r2dbc.spi.Batch;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionMetadata;
import io.r2dbc.spi.IsolationLevel;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
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
import reactor.core.publisher.Operators;
import reactor.core.publisher.Sinks;

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
 * <p>
 * A transaction's end (its commit or rollback) goes to the driver after every statement
 * being handed to it at that moment, and a statement that comes after the end is refused,
 * not sent. A transaction given up (a request whose client left, a chunk of an import
 * whose sibling failed) is rolled back by the thread that gave it up while its own thread
 * may be handing the driver its next statement; r2dbc-postgresql sends what it is given
 * in that order, so the statement could follow the {@code ROLLBACK} and commit on its own
 * (r2dbc-postgresql issue 733; measured: 6 of 3,000 transactions cancelled mid-way left a
 * row, and an import resumed after a claim lost counted 11 of its lines as stored
 * before). A connection is lent outside any transaction and goes back to its pool outside
 * one: the pool takes back a connection whose lend was given up while its {@code BEGIN}
 * was under way, so a lend rolls back a transaction it finds open ({@link #lend}), and a
 * lend that began none but finds one open at its end (that {@code BEGIN} answered after
 * its own statements were sent) commits its statements ({@link #close}).
 */
final class GuardedConnection implements Connection, Wrapped<Connection> {

	/** How long closing a given-up connection may take before it is left to the pool. */
	private static final Duration CLOSE_WAIT = Duration.ofSeconds(1);

	private final Connection pooled;

	/**
	 * In {@link #handing}: this lend's transaction is ending (its commit or rollback was
	 * asked for); the bits below count the statements being handed to the driver.
	 */
	private static final int ENDED = 1 << 30;

	private volatile boolean givenUp;

	/** Whether a transaction was begun on this lend. */
	private volatile boolean began;

	/** Statements being handed to the driver now, plus {@link #ENDED}. */
	private final AtomicInteger handing = new AtomicInteger();

	/** The end of the transaction, waiting for the statements being handed over. */
	private final AtomicReference<Sinks.Empty<Void>> ending = new AtomicReference<>();

	GuardedConnection(Connection pooled) {
		this.pooled = pooled;
	}

	/**
	 * {@code pooled}, lent: outside any transaction. The pool may hold a connection still
	 * in a transaction that no lend began (the BEGIN of a lend given up while it was
	 * under way), which is rolled back first; nothing was sent in it.
	 */
	static Mono<GuardedConnection> lend(Connection pooled) {
		GuardedConnection lent = new GuardedConnection(pooled);
		return pooled.isAutoCommit() ? Mono.just(lent) : Mono.from(pooled.rollbackTransaction()).thenReturn(lent);
	}

	private void gaveUp() {
		this.givenUp = true;
	}

	/** A step that answers with its completion only: given up if cancelled before it. */
	private Publisher<Void> step(Publisher<Void> step) {
		return Mono.from(step).doOnCancel(this::gaveUp);
	}

	/**
	 * {@code send}, which hands a statement to the driver when subscribed (the driver
	 * queues its messages then), unless the transaction is ending: then an error, and
	 * nothing sent. Both a statement's execution and its results' rows go through it:
	 * r2dbc-postgresql sends a statement with bound values when its rows are asked for,
	 * one without them when it is executed.
	 */
	private <T> Publisher<T> inOrder(Publisher<T> send) {
		return (subscriber) -> {
			if ((this.handing.incrementAndGet() & ENDED) != 0) {
				handed();
				Operators.error(subscriber, new R2dbcNonTransientResourceException(
						"Not sent: the transaction on this connection had ended (committed or rolled back)"));
				return;
			}
			try {
				send.subscribe(subscriber);
			}
			finally {
				handed();
			}
		};
	}

	/** A statement was handed over (or refused); the last one lets the end go. */
	private void handed() {
		if (this.handing.decrementAndGet() == ENDED) {
			Sinks.Empty<Void> end = this.ending.getAndSet(null);
			if (end != null) {
				end.tryEmitEmpty();
			}
		}
	}

	/**
	 * The transaction's end, {@code end} (commit or rollback), sent once no statement is
	 * being handed to the driver; statements after it are refused ({@link #inOrder}).
	 */
	private Publisher<Void> ending(Publisher<Void> end) {
		return step(Mono.defer(() -> {
			Sinks.Empty<Void> handedOver = Sinks.empty();
			this.ending.set(handedOver);
			int before = this.handing.getAndUpdate((now) -> now | ENDED);
			if ((before & ~ENDED) == 0 && this.ending.compareAndSet(handedOver, null)) {
				return Mono.from(end);
			}
			return handedOver.asMono().then(Mono.from(end));
		}));
	}

	/** A transaction begins on this lend: statements are sent again. */
	private Publisher<Void> beginning(Publisher<Void> begin) {
		return step(Mono.defer(() -> {
			this.began = true;
			this.ending.set(null);
			this.handing.getAndUpdate((now) -> now & ~ENDED);
			return Mono.from(begin);
		}));
	}

	@Override
	public Publisher<Void> close() {
		if (!this.givenUp) {
			if (!this.began && !this.pooled.isAutoCommit()) {
				// a transaction this lend did not begin is open: the BEGIN of an earlier
				// lend, given up while it was under way (the pool takes such a connection
				// back), was answered after this lend had statements sent; they were sent
				// and answered as statements of their own, so they commit before the
				// connection goes back
				return Mono.from(this.pooled.commitTransaction()).then(Mono.from(this.pooled.close()));
			}
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
				return results(inOrder(batch.execute()));
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
		return beginning(this.pooled.beginTransaction());
	}

	@Override
	public Publisher<Void> beginTransaction(TransactionDefinition definition) {
		return beginning(this.pooled.beginTransaction(definition));
	}

	@Override
	public Publisher<Void> commitTransaction() {
		return ending(this.pooled.commitTransaction());
	}

	@Override
	public Publisher<Void> rollbackTransaction() {
		return ending(this.pooled.rollbackTransaction());
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
			return results(inOrder(this.statement.execute()));
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
			return answered(inOrder(this.result.getRowsUpdated()));
		}

		@Override
		public <T> Publisher<T> map(BiFunction<Row, RowMetadata, ? extends T> mapping) {
			return answered(inOrder(this.result.map(mapping)));
		}

		@Override
		public <T> Publisher<T> map(Function<? super Readable, ? extends T> mapping) {
			return answered(inOrder(this.result.map(mapping)));
		}

		@Override
		public Result filter(Predicate<Segment> filter) {
			return new GuardedResult(this.result.filter(filter));
		}

		@Override
		public <T> Publisher<T> flatMap(Function<Segment, ? extends Publisher<? extends T>> mapping) {
			return answered(inOrder(this.result.flatMap(mapping)));
		}

	}

}
