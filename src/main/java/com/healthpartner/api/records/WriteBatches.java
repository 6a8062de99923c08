package com.healthpartner.api.records;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.transaction.reactive.TransactionContext;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.records.RecordStore.Written;

/**
 * The upserts of records that concurrent requests post, written together: one statement
 * (and one commit) for all the records waiting when a statement can start, each request
 * answered after the commit that holds its record, with its own outcome, change and audit
 * event. A statement never holds two writes of one client record id and takes its rows in
 * the unique index's order; a write inside a transaction runs alone on it
 * (docs/architecture.md, Writes and pages together).
 *
 * @param <R> the stored record
 */
public final class WriteBatches<R extends RecordStore.Stored> {

	/** The most writes in one statement. */
	static final int MAX_BATCH = 64;

	private final DatabaseClient db;

	private final String sql;

	private final Binder<R> binder;

	private final Function<Readable, R> reader;

	private final SharedStatements<Pending<R>> statements;

	/**
	 * Batches of {@code sql} (made by {@link RecordStatements#upsert}), whose
	 * record-specific arrays {@code binder} binds and whose rows {@code reader} reads. A
	 * statement that has not ended after {@code deadline}
	 * ({@code APP_DATABASE_STATEMENT_DEADLINE}) counts as failed (a {@code 503} for its
	 * writes) and frees its place: PostgreSQL ends a statement at its time limit itself,
	 * but a database that stops answering would otherwise hold the loop's writes forever.
	 * At most {@code maxWaiting} writes ({@code APP_DATABASE_MAX_WAITING_PER_LOOP}) wait
	 * for a statement of one event loop; beyond, a write is refused at once
	 * ({@code 503}).
	 */
	public WriteBatches(DatabaseClient db, String sql, Binder<R> binder, Function<Readable, R> reader,
			Duration deadline, int maxWaiting) {
		this(db, sql, binder, reader, maxWaiting, deadline, SharedStatements.STALL);
	}

	/**
	 * As above, with at most {@code maxWaiting} writes waiting, {@code deadline} for a
	 * statement, and a statement stalled after {@code stall}.
	 */
	WriteBatches(DatabaseClient db, String sql, Binder<R> binder, Function<Readable, R> reader, int maxWaiting,
			Duration deadline, Duration stall) {
		this.db = db;
		this.sql = sql;
		this.binder = binder;
		this.reader = reader;
		this.statements = new SharedStatements<>("record writes", WriteBatches::take, this::run, maxWaiting, deadline,
				stall);
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
			return Mono.<Written<R>>create((sink) -> this.statements.add(new Pending<>(partnerId, row, actor, sink)));
		});
	}

	/**
	 * The next statement's writes, in the order they came, without a second write of one
	 * client record id (it waits for the next statement), at most {@link #MAX_BATCH}.
	 */
	private static <R extends RecordStore.Stored> List<Pending<R>> take(Iterator<Pending<R>> waiting) {
		List<Pending<R>> batch = new ArrayList<>();
		Set<ClientKey> clientIds = null;
		while (waiting.hasNext() && batch.size() < MAX_BATCH) {
			Pending<R> write = waiting.next();
			String clientId = write.row().clientRecordId();
			if (clientId != null) {
				clientIds = (clientIds != null) ? clientIds : new HashSet<>();
				if (!clientIds.add(new ClientKey(write.partnerId(), clientId))) {
					continue;
				}
			}
			waiting.remove();
			batch.add(write);
		}
		return batch;
	}

	/**
	 * Writes {@code batch} in one statement and gives each write its row: by client
	 * record id when it has one (an update returns the stored record's id), else by id. A
	 * write without a row wrote nothing.
	 */
	private Mono<Void> run(List<Pending<R>> batch) {
		return execute(batch).collectList().doOnNext((rows) -> {
			Map<Object, Written<R>> byKey = byKey(rows);
			for (Pending<R> write : batch) {
				write.outcome(byKey.get(key(write.partnerId(), write.row())));
			}
		}).then();
	}

	/** The rows a statement wrote, by the key of their write. */
	private Map<Object, Written<R>> byKey(List<Returned<R>> rows) {
		Map<Object, Written<R>> byKey = new HashMap<>(rows.size() * 2);
		for (Returned<R> row : rows) {
			byKey.put(key(row.partnerId(), row.written().row()), row.written());
		}
		return byKey;
	}

	private Object key(UUID partnerId, R row) {
		return (row.clientRecordId() != null) ? new ClientKey(partnerId, row.clientRecordId()) : row.id();
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
	public static final class Pending<R> extends SharedStatements.Waiting<Written<R>> {

		private final UUID partnerId;

		private final R row;

		private final AuditActor actor;

		Pending(UUID partnerId, R row, AuditActor actor, MonoSink<Written<R>> sink) {
			super(sink);
			this.partnerId = partnerId;
			this.row = row;
			this.actor = actor;
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

	}

	/** A row a statement wrote, with the partner it belongs to. */
	private record Returned<R>(UUID partnerId, Written<R> written) {
	}

	/** The partner and client record id of a write: one per statement. */
	private record ClientKey(UUID partnerId, String clientRecordId) {
	}

}
