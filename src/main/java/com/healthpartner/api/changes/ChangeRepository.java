package com.healthpartner.api.changes;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

/**
 * The change feed's table. A page lists a partner's changes after a position in
 * {@code (txid, seq)} order, but only those of transactions below the visibility horizon
 * {@code pg_snapshot_xmin(pg_current_snapshot())}: every transaction below it has ended,
 * so no change can later appear behind the position a page ends at. Changes that a
 * pending erasure hides (the erased user's changes before its cut-off) are left out.
 */
@Repository
class ChangeRepository {

	/** The page query of each resource condition (three in all), built once. */
	private static final Map<String, String> PAGES = new ConcurrentHashMap<>();

	private final DatabaseClient db;

	ChangeRepository(DatabaseClient db) {
		this.db = db;
	}

	/**
	 * At most {@code limit} changes after {@code (afterTxid, afterSeq)} of the given
	 * resources ({@code user_erased} always), with the horizon and the retention bound.
	 */
	Mono<Slice> page(UUID partnerId, String resources, long afterTxid, long afterSeq, int limit) {
		return this.db.sql(PAGES.computeIfAbsent(resources, ChangeRepository::pageSql))
			.bind("partnerId", partnerId)
			.bind("afterTxid", Long.toString(afterTxid))
			.bind("afterSeq", afterSeq)
			.bind("limit", limit)
			.map((row) -> new Line(row.get(0, Long.class), row.get(1, Long.class),
					(row.get(3, Long.class) != null) ? change(row) : null))
			.all()
			.collectList()
			.map(ChangeRepository::slice);
	}

	/**
	 * The page query; {@code resources} is a condition on {@code c.resource}
	 * ({@code true} when the key reads both).
	 */
	static String pageSql(String resources) {
		return """
				with h as materialized (
				    select pg_snapshot_xmin(pg_current_snapshot()) as horizon,
				           (select kept_from from changes_kept) as kept_from
				), pending as materialized (
				    select user_id, max(cutoff) as cutoff from user_erasures
				    where partner_id = :partnerId and status = 'pending' group by user_id
				)
				select h.horizon::text::bigint as horizon, h.kept_from::text::bigint as kept_from, c.*
				from h left join lateral (
				    select c.txid::text::bigint as txid, c.seq, c.kind, c.resource, c.record_id, c.user_id,
				           c.client_record_id, c.client_record_version, c.data::text as data, c.recorded_at,
				           c.created_at, c.updated_at, c.changed_at
				    from changes c
				    where c.partner_id = :partnerId and (c.txid, c.seq) > (cast(:afterTxid as text)::xid8, :afterSeq)
				      and c.txid < h.horizon
				      and (c.kind = 'user_erased' or (%s))
				      and (c.kind = 'user_erased'
				           or not exists (select 1 from pending p where p.user_id = c.user_id and c.txid < p.cutoff))
				    order by c.txid, c.seq
				    limit :limit
				) c on true
				""".formatted(resources);
	}

	/**
	 * Marks changes below the first transaction of a change younger than {@code before}
	 * (or below the horizon when there is none) as no longer kept; returns that bound.
	 * Committed before anything is deleted, so that a cursor older than it is refused
	 * before its changes go.
	 */
	Mono<Long> keepFrom(Instant before) {
		return this.db.sql("""
				update changes_kept set kept_from = greatest(kept_from, least(
				    coalesce((select min(txid) from changes where changed_at >= :before),
				             pg_snapshot_xmin(pg_current_snapshot())),
				    pg_snapshot_xmin(pg_current_snapshot())))
				returning kept_from::text::bigint as kept_from
				""").bind("before", before).map((row) -> row.get("kept_from", Long.class)).one();
	}

	/** Deletes up to {@code batch} changes below {@code keptFrom}; returns how many. */
	Mono<Long> deleteBefore(long keptFrom, int batch) {
		return this.db.sql("""
				delete from changes where ctid = any(array(
				    select ctid from changes where txid < cast(:keptFrom as text)::xid8 limit :batch))
				""").bind("keptFrom", Long.toString(keptFrom)).bind("batch", batch).fetch().rowsUpdated();
	}

	/**
	 * A change from its columns by position (in the order of {@link #pageSql}: horizon
	 * and kept_from first), sparing a look-up by name of each of a page's 1,500 values.
	 */
	private static ChangeRow change(Readable row) {
		return new ChangeRow(row.get(2, Long.class), row.get(3, Long.class), row.get(4, String.class),
				row.get(5, String.class), row.get(6, UUID.class), row.get(7, String.class), row.get(8, String.class),
				row.get(9, Long.class), row.get(10, String.class), row.get(11, Instant.class),
				row.get(12, Instant.class), row.get(13, Instant.class), row.get(14, Instant.class));
	}

	private static Slice slice(List<Line> lines) {
		List<ChangeRow> changes = new ArrayList<>(lines.size());
		for (Line line : lines) {
			if (line.change() != null) {
				changes.add(line.change());
			}
		}
		Line first = lines.get(0);
		return new Slice(changes, first.horizon(), first.keptFrom());
	}

	private record Line(long horizon, long keptFrom, ChangeRow change) {
	}

	/**
	 * Changes of a page (with one more than asked when more exist), the horizon they were
	 * read below, and the oldest transaction whose changes are all kept.
	 */
	record Slice(List<ChangeRow> changes, long horizon, long keptFrom) {
	}

}
