package com.healthpartner.api.erasure;

import java.time.Instant;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.audit.AuditActor;

/**
 * Erasures and their work. The request is one statement (the erasure, its
 * {@code user_erased} change and its audit event commit together); each batch of the
 * deletion is one short statement of its own that locks only the rows it deletes.
 */
@Repository
class ErasureRepository {

	private static final String COLUMNS = "id, partner_id, user_id, status, cutoff::text::bigint as cutoff, "
			+ "requested_at, completed_at, metrics_deleted, assessments_deleted";

	private final DatabaseClient db;

	ErasureRepository(DatabaseClient db) {
		this.db = db;
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
					.formatted(COLUMNS))
				.bind("id", id)
				.bind("partnerId", partnerId)
				.bind("userId", userId))
			.map(ErasureRepository::row)
			.one();
	}

	Mono<ErasureRow> find(UUID partnerId, UUID id) {
		return this.db.sql("select %s from user_erasures where partner_id = :partnerId and id = :id".formatted(COLUMNS))
			.bind("partnerId", partnerId)
			.bind("id", id)
			.map(ErasureRepository::row)
			.one();
	}

	/** Pending erasures, oldest first, whichever instance accepted them. */
	Flux<ErasureRow> pending(int limit) {
		return this.db
			.sql("select %s from user_erasures where status = 'pending' order by requested_at limit :limit"
				.formatted(COLUMNS))
			.bind("limit", limit)
			.map(ErasureRepository::row)
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
	 * Deletes up to {@code batch} erased records of {@code table} ({@code metric_records}
	 * or {@code assessments}) and adds them to the erasure's count; returns how many.
	 * Rows another statement holds are skipped, not waited for.
	 */
	Mono<Long> deleteRecords(ErasureRow erasure, String table, String counter, int batch) {
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
				.formatted(table, counter))
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
		return this.db.sql("""
				update user_erasures e set status = 'completed', completed_at = :now
				where id = :id and status = 'pending'
				  and pg_snapshot_xmin(pg_current_snapshot()) >= e.cutoff
				  and not exists (select 1 from metric_records r where r.partner_id = e.partner_id
				                  and r.user_id = e.user_id and r.created_txid < e.cutoff)
				  and not exists (select 1 from assessments r where r.partner_id = e.partner_id
				                  and r.user_id = e.user_id and r.created_txid < e.cutoff)
				  and not exists (select 1 from changes c where c.partner_id = e.partner_id and c.user_id = e.user_id
				                  and c.kind <> 'user_erased' and c.txid < e.cutoff)
				returning %s
				""".formatted(COLUMNS)).bind("id", erasure.id()).bind("now", now).map(ErasureRepository::row).one();
	}

	private static ErasureRow row(Readable row) {
		Long metrics = row.get("metrics_deleted", Long.class);
		Long assessments = row.get("assessments_deleted", Long.class);
		return new ErasureRow(row.get("id", UUID.class), row.get("partner_id", UUID.class),
				row.get("user_id", String.class), row.get("status", String.class), row.get("cutoff", Long.class),
				row.get("requested_at", Instant.class), row.get("completed_at", Instant.class),
				(metrics != null) ? metrics : 0, (assessments != null) ? assessments : 0);
	}

}
