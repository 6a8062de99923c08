package com.healthpartner.api.erasure;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.webhook.WebhookOutbox;

/**
 * Erasures and their work. The request is one statement (the erasure, its
 * {@code user_erased} change and its audit event commit together); each batch of the
 * deletion is one short statement of its own that locks only the rows it deletes.
 */
@Repository
class ErasureRepository {

	private final DatabaseClient db;

	private final List<String> counters;

	/** The columns of an erasure as {@link #row} reads them. */
	private final String columns;

	/** Completes an erasure once no record of any kind nor change it covers is left. */
	private final String complete;

	ErasureRepository(DatabaseClient db, List<RecordKind> kinds) {
		this.db = db;
		this.counters = kinds.stream().map(RecordKind::erasureCounter).toList();
		this.columns = "id, partner_id, user_id, status, cutoff::text::bigint as cutoff, requested_at, completed_at, "
				+ String.join(", ", this.counters);
		String noRecordLeft = kinds.stream().map((kind) -> """
				  and not exists (select 1 from %s r where r.partner_id = e.partner_id
				                  and r.user_id = e.user_id and r.created_txid < e.cutoff)
				""".formatted(kind.table())).collect(Collectors.joining());
		String data = "json_build_object('erasure_id', s.id, 'user_id', s.user_id, 'status', s.status, "
				+ "'requested_at', api_time(s.requested_at), 'completed_at', api_time(s.completed_at)"
				+ this.counters.stream()
					.map((counter) -> ", '" + counter + "', s." + counter)
					.collect(Collectors.joining())
				+ ")::text";
		String readScopes = kinds.stream()
			.map((kind) -> "'" + kind.read().value() + "'")
			.collect(Collectors.joining(", ", "array[", "]"));
		// the webhook deliveries of the user's erased changes go with them (user.erased
		// stays)
		this.complete = """
				with done as (
				    update user_erasures e set status = 'completed', completed_at = :now
				    where id = :id and status = 'pending'
				      and pg_snapshot_xmin(pg_current_snapshot()) >= e.cutoff
				%s      and not exists (select 1 from changes c where c.partner_id = e.partner_id and c.user_id = e.user_id
				                      and c.kind <> 'user_erased' and c.txid < e.cutoff)
				    returning *
				), purged as (
				    delete from webhook_deliveries d using done
				    where d.partner_id = done.partner_id and d.user_id = done.user_id
				      and d.event_type <> 'user.erased' and d.change_txid < done.cutoff
				), hooked as (%s)
				select %s from done
				"""
			.formatted(noRecordLeft,
					WebhookOutbox.deliveries("done", "erasure.completed", data, readScopes, "s.user_id"), this.columns);
	}

	/**
	 * Records a pending erasure of the user's records of every transaction that had
	 * started before it; from its commit on, reads hide them.
	 */
	Mono<ErasureRow> request(UUID id, UUID partnerId, String userId, AuditActor actor) {
		return actor
			.bind(this.db
				.sql("""
						with erasure as (
						    insert into user_erasures (id, partner_id, user_id, status, cutoff, requested_at)
						    values (:id, :partnerId, :userId, 'pending', pg_snapshot_xmax(pg_current_snapshot()), :auditAt)
						    returning *
						), change as (
						    insert into changes (partner_id, kind, user_id, changed_at, item)
						    values (:partnerId, 'user_erased', :userId, :auditAt,
						            change_item('user_erased', null, null, :userId, null, api_time(:auditAt), null))
						), audit as (
						    insert into audit_events (id, at, partner_id, key_id, user_id, action, resource, record_count, request_id)
						    values (:auditId, :auditAt, :partnerId, :keyId, :userId, 'erase', 'users', 0, :requestId)
						)
						select %s from erasure
						"""
					.formatted(this.columns))
				.bind("id", id)
				.bind("partnerId", partnerId)
				.bind("userId", userId))
			.map(this::row)
			.one();
	}

	Mono<ErasureRow> find(UUID partnerId, UUID id) {
		return this.db
			.sql("select %s from user_erasures where partner_id = :partnerId and id = :id".formatted(this.columns))
			.bind("partnerId", partnerId)
			.bind("id", id)
			.map(this::row)
			.one();
	}

	/** Pending erasures, oldest first, whichever instance accepted them. */
	Flux<ErasureRow> pending(int limit) {
		return this.db
			.sql("select %s from user_erasures where status = 'pending' order by requested_at limit :limit"
				.formatted(this.columns))
			.bind("limit", limit)
			.map(this::row)
			.all();
	}

	/**
	 * Whether every transaction below the cut-off has ended: before that, a record of one
	 * of them could still be committed after the last batch.
	 */
	Mono<Boolean> settled(ErasureRow erasure) {
		return this.db.sql("select pg_snapshot_xmin(pg_current_snapshot()) >= cast(:cutoff as text)::xid8 as settled")
			.bind("cutoff", Long.toString(erasure.cutoff()))
			.map((row) -> Boolean.TRUE.equals(row.get("settled", Boolean.class)))
			.one();
	}

	/**
	 * Deletes up to {@code batch} erased records of {@code kind} and adds them to the
	 * erasure's count of the kind; returns how many. Rows another statement holds are
	 * skipped, not waited for.
	 */
	Mono<Long> deleteRecords(ErasureRow erasure, RecordKind kind, int batch) {
		return this.db
			.sql("""
					with gone as (
					    delete from %1$s where ctid = any(array(
					        select ctid from %1$s
					        where partner_id = :partnerId and user_id = :userId and created_txid < cast(:cutoff as text)::xid8
					        limit :batch for update skip locked))
					    returning 1
					), counted as (
					    update user_erasures set %2$s = %2$s + (select count(*) from gone) where id = :id
					)
					select count(*) as deleted from gone
					"""
				.formatted(kind.table(), kind.erasureCounter()))
			.bind("id", erasure.id())
			.bind("batch", batch)
			.bind("partnerId", erasure.partnerId())
			.bind("userId", erasure.userId())
			.bind("cutoff", Long.toString(erasure.cutoff()))
			.map((row) -> row.get("deleted", Long.class))
			.one();
	}

	/**
	 * Deletes up to {@code batch} of the user's changes before the erasure (their
	 * {@code user_erased} changes stay); returns how many.
	 */
	Mono<Long> deleteChanges(ErasureRow erasure, int batch) {
		return this.db.sql("""
				delete from changes where ctid = any(array(
				    select ctid from changes
				    where partner_id = :partnerId and user_id = :userId and kind <> 'user_erased'
				      and txid < cast(:cutoff as text)::xid8
				    limit :batch))
				""")
			.bind("partnerId", erasure.partnerId())
			.bind("userId", erasure.userId())
			.bind("cutoff", Long.toString(erasure.cutoff()))
			.bind("batch", batch)
			.fetch()
			.rowsUpdated();
	}

	/**
	 * Completes the erasure once nothing it covers is left; empty when something is (a
	 * batch of another instance still running, or a late row).
	 */
	Mono<ErasureRow> complete(ErasureRow erasure, Instant now) {
		return this.db.sql(this.complete).bind("id", erasure.id()).bind("now", now).map(this::row).one();
	}

	private ErasureRow row(Readable row) {
		List<ErasureRow.Deleted> deleted = new ArrayList<>(this.counters.size());
		for (String counter : this.counters) {
			Long count = row.get(counter, Long.class);
			deleted.add(new ErasureRow.Deleted(counter, (count != null) ? count : 0));
		}
		return new ErasureRow(row.get("id", UUID.class), row.get("partner_id", UUID.class),
				row.get("user_id", String.class), row.get("status", String.class), row.get("cutoff", Long.class),
				row.get("requested_at", Instant.class), row.get("completed_at", Instant.class), deleted);
	}

}
