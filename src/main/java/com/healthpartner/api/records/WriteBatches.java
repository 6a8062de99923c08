package com.healthpartner.api.records;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.transaction.reactive.TransactionContext;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.problem.DatabaseFailures;
import com.healthpartner.api.records.RecordStore.Written;
import com.healthpartner.api.system.PeriodicFlush;
import com.healthpartner.api.web.LoopTimer;

/**
 * The upserts of records that concurrent requests post, written together: one statement
 * (and one commit) for all the records waiting when a statement can start. Each request
 * still gets its own answer after the commit that holds its record, so nothing is
 * acknowledged before it is durable, and each record gets its own change and audit event.
 *
 * <p>
 * Most of what a lone write costs the database is the statement and its commit, not the
 * rows (the harness's bare {@code INSERT}: 184 µs of PostgreSQL's CPU a transaction);
 * many records in one statement share that cost. No request waits for a batch to fill: a
 * write starts at once while fewer than {@value #IN_FLIGHT} statements of its event loop
 * are under way, and otherwise goes with the next statement, which starts when one of
 * them ends. Under light load every write is a statement of its own.
 *
 * <p>
 * A statement never holds two writes of one client record id (an upsert cannot touch a
 * row twice): the later one waits for the next statement, so writes of one id still apply
 * one after the other. Statements take their rows in the order of the unique index, so
 * that two statements under way never wait for each other's rows the other way round.
 * When a statement of several writes fails for a reason of its rows rather than of the
 * database (a constraint, a deadlock), each write is tried again alone, so that one
 * write's failure is never another's. A write inside a transaction (the
 * {@code Idempotency-Key} flow) runs alone on that transaction's connection.
 *
 * @param <R> the stored record
 */
public final class WriteBatches<R extends RecordStore.Stored> {

	/** Statements of one event loop under way at once, on connections of its pool. */
	static final int IN_FLIGHT = 2;

	/** The most writes in one statement. */
	static final int MAX_BATCH = 64;

	/**
	 * The most writes waiting for a statement of one event loop; beyond, a write is
	 * refused at once ({@code 503}) rather than held in memory behind a database that
	 * does not keep up.
	 */
	static final int MAX_WAITING = 1024;

	/**
	 * How long a statement may take before it counts as failed (a {@code 503} for its
	 * writes) and frees its place: PostgreSQL ends a statement at its time limit itself,
	 * but a database that stops answering would otherwise hold the loop's writes forever.
	 */
	static final Duration STATEMENT_DEADLINE = PeriodicFlush.WRITE_DEADLINE;

	private final DatabaseClient db;

	private final String sql;

	private final Binder<R> binder;

	private final Function<Readable, R> reader;

	private final int inFlight;

	private final int maxWaiting;

	private final Duration deadline;

	private final Map<EventExecutor, Lane> lanes = new ConcurrentHashMap<>();

	private final Lane otherThreads = new Lane();

	/**
	 * Batches of {@code sql} (made by {@link RecordStatements#upsert}), whose
	 * record-specific arrays {@code binder} binds and whose rows {@code reader} reads.
	 */
	public WriteBatches(DatabaseClient db, String sql, Binder<R> binder, Function<Readable, R> reader) {
		this(db, sql, binder, reader, IN_FLIGHT, MAX_WAITING, STATEMENT_DEADLINE);
	}

	/**
	 * As above, with {@code inFlight} statements of a loop under way at once, at most
	 * {@code maxWaiting} writes waiting, and {@code deadline} for a statement.
	 */
	WriteBatches(DatabaseClient db, String sql, Binder<R> binder, Function<Readable, R> reader, int inFlight,
			int maxWaiting, Duration deadline) {
		this.db = db;
		this.sql = sql;
		this.binder = binder;
		this.reader = reader;
		this.inFlight = inFlight;
		this.maxWaiting = maxWaiting;
		this.deadline = deadline;
	}

	/**
	 * Writes one record (see {@link RecordStore#upsert}); empty when the upsert wrote
	 * nothing.
	 */
	public Mono<Written<R>> write(UUID partnerId, R row, AuditActor actor) {
		return Mono.deferContextual((context) -> {
			if (context.hasKey(TransactionContext.class)) {
				Pending<R> alone = new Pending<>(partnerId, row, actor, null);
				return execute(List.of(alone)).singleOrEmpty().map(Returned::written);
			}
			return Mono.<Written<R>>create((sink) -> lane().add(new Pending<>(partnerId, row, actor, sink)));
		});
	}

	private Lane lane() {
		EventExecutor current = ThreadExecutorMap.currentExecutor();
		if (current == null) {
			return this.otherThreads;
		}
		Lane lane = this.lanes.get(current);
		return (lane != null) ? lane : this.lanes.computeIfAbsent(current, (key) -> new Lane());
	}

	/** One statement of {@code batch}: the rows it wrote, each with its write's key. */
	private Flux<Returned<R>> execute(List<Pending<R>> batch) {
		int size = batch.size();
		UUID[] ids = new UUID[size];
		UUID[] partnerIds = new UUID[size];
		String[] userIds = new String[size];
		String[] clientIds = new String[size];
		Long[] versions = new Long[size];
		String[] contents = new String[size];
		Instant[] createdAts = new Instant[size];
		String[] createdTexts = new String[size];
		UUID[] auditIds = new UUID[size];
		Instant[] auditAts = new Instant[size];
		UUID[] keyIds = new UUID[size];
		String[] requestIds = new String[size];
		for (int i = 0; i < size; i++) {
			Pending<R> write = batch.get(i);
			R row = write.row();
			ids[i] = row.id();
			partnerIds[i] = write.partnerId();
			userIds[i] = row.userId();
			clientIds[i] = row.clientRecordId();
			versions[i] = row.clientRecordVersion();
			contents[i] = row.content();
			createdAts[i] = row.createdAt();
			// the change's view takes the time as the API writes it (the statement would
			// otherwise format it again with to_char)
			createdTexts[i] = Timestamps.format(row.createdAt());
			auditAts[i] = write.actor().at();
			auditIds[i] = Ids.ordered(auditAts[i].toEpochMilli());
			keyIds[i] = write.actor().keyId();
			requestIds[i] = write.actor().requestId();
		}
		GenericExecuteSpec spec = this.db.sql(this.sql)
			.bind("ids", ids)
			.bind("partnerIds", partnerIds)
			.bind("userIds", userIds)
			.bind("clientRecordIds", clientIds)
			.bind("clientRecordVersions", versions)
			.bind("contents", contents)
			.bind("createdAts", createdAts)
			.bind("createdAtTexts", createdTexts)
			.bind("auditIds", auditIds)
			.bind("auditAts", auditAts)
			.bind("keyIds", keyIds)
			.bind("requestIds", requestIds);
		return this.binder.bind(spec, batch)
			.map((stored) -> new Returned<>(stored.get("partner_id", UUID.class),
					new Written<>(Boolean.TRUE.equals(stored.get("inserted", Boolean.class)),
							this.reader.apply(stored))))
			.all();
	}

	/**
	 * Whether a statement of several writes that failed with {@code failure} is worth
	 * trying again write by write: yes for what one row may cause, no when the database
	 * or the connection to it failed (the writes alone would only fail again, later).
	 */
	static boolean worthAlone(Throwable failure) {
		return !DatabaseFailures.isUnavailable(failure);
	}

	/**
	 * Binds the arrays of a record kind's own columns to a statement of {@code batch}, in
	 * its order.
	 */
	@FunctionalInterface
	public interface Binder<R> {

		GenericExecuteSpec bind(GenericExecuteSpec spec, List<Pending<R>> batch);

	}

	/**
	 * A write waiting for its statement, with its request's answer ({@code sink}; null
	 * for a write that runs alone in a transaction). A write whose request is cancelled
	 * while it waits (its client gone, its deadline passed) is left out of the statement.
	 */
	public static final class Pending<R> {

		private final UUID partnerId;

		private final R row;

		private final AuditActor actor;

		private final MonoSink<Written<R>> sink;

		private volatile boolean cancelled;

		Pending(UUID partnerId, R row, AuditActor actor, MonoSink<Written<R>> sink) {
			this.partnerId = partnerId;
			this.row = row;
			this.actor = actor;
			this.sink = sink;
			if (sink != null) {
				sink.onCancel(() -> this.cancelled = true);
			}
		}

		public UUID partnerId() {
			return this.partnerId;
		}

		public R row() {
			return this.row;
		}

		AuditActor actor() {
			return this.actor;
		}

		MonoSink<Written<R>> sink() {
			return this.sink;
		}

	}

	/** A row a statement wrote, with the partner it belongs to. */
	private record Returned<R>(UUID partnerId, Written<R> written) {
	}

	/** The partner and client record id of a write: one per statement. */
	private record ClientKey(UUID partnerId, String clientRecordId) {
	}

	/**
	 * The writes of one event loop (or of all other threads): those waiting, and how many
	 * statements are under way. Statements end on the loop that started them, but a
	 * request's cancellation or a timer may come from another thread, hence the lock.
	 */
	private final class Lane {

		private final ArrayDeque<Pending<R>> waiting = new ArrayDeque<>();

		private int underWay;

		void add(Pending<R> write) {
			List<Pending<R>> batch;
			synchronized (this) {
				if (this.waiting.size() >= WriteBatches.this.maxWaiting) {
					this.waiting.removeIf((waiting) -> waiting.cancelled);
					if (this.waiting.size() >= WriteBatches.this.maxWaiting) {
						write.sink()
							.error(new DataAccessResourceFailureException(
									"Too many record writes are waiting for the database"));
						return;
					}
				}
				this.waiting.add(write);
				if (this.underWay >= WriteBatches.this.inFlight) {
					return;
				}
				batch = take();
			}
			if (batch != null) {
				start(batch);
			}
		}

		/**
		 * The next statement's writes, in the order they came, without a second write of
		 * one client record id or a cancelled one; counted as under way. Null when none
		 * wait.
		 */
		private List<Pending<R>> take() {
			if (this.waiting.isEmpty()) {
				return null;
			}
			List<Pending<R>> batch = new ArrayList<>(Math.min(this.waiting.size(), MAX_BATCH));
			Set<ClientKey> clientIds = null;
			Iterator<Pending<R>> writes = this.waiting.iterator();
			while (writes.hasNext() && batch.size() < MAX_BATCH) {
				Pending<R> write = writes.next();
				if (write.cancelled) {
					writes.remove();
					continue;
				}
				String clientId = write.row().clientRecordId();
				if (clientId != null) {
					clientIds = (clientIds != null) ? clientIds : new HashSet<>();
					if (!clientIds.add(new ClientKey(write.partnerId(), clientId))) {
						continue;
					}
				}
				writes.remove();
				batch.add(write);
			}
			if (batch.isEmpty()) {
				return null;
			}
			this.underWay++;
			return batch;
		}

		private void start(List<Pending<R>> batch) {
			execute(batch).collectList()
				.timeout(LoopTimer.after(WriteBatches.this.deadline))
				.subscribe((rows) -> answer(batch, rows), (failure) -> {
					if (batch.size() > 1 && worthAlone(failure)) {
						Flux.fromIterable(batch)
							.flatMap((write) -> execute(List.of(write)).collectList()
								.timeout(LoopTimer.after(WriteBatches.this.deadline))
								.doOnNext((rows) -> answer(List.of(write), rows))
								.onErrorResume((alone) -> {
									write.sink().error(alone);
									return Mono.empty();
								}))
							.doFinally((signal) -> ended())
							.subscribe();
						return;
					}
					for (Pending<R> write : batch) {
						write.sink().error(failure);
					}
					ended();
				}, this::ended);
		}

		private void ended() {
			List<Pending<R>> next;
			synchronized (this) {
				this.underWay--;
				next = take();
			}
			if (next != null) {
				start(next);
			}
		}

		/**
		 * Gives each write its row: by client record id when it has one (an update
		 * returns the stored record's id), else by id. A write without a row wrote
		 * nothing.
		 */
		private void answer(List<Pending<R>> batch, List<Returned<R>> rows) {
			Map<Object, Written<R>> byKey = new HashMap<>(rows.size() * 2);
			for (Returned<R> row : rows) {
				R stored = row.written().row();
				byKey.put(key(row.partnerId(), stored), row.written());
			}
			for (Pending<R> write : batch) {
				write.sink().success(byKey.get(key(write.partnerId(), write.row())));
			}
		}

		private Object key(UUID partnerId, R row) {
			return (row.clientRecordId() != null) ? new ClientKey(partnerId, row.clientRecordId()) : row.id();
		}

	}

}
