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
		PageRows page = new PageRows(limit);
		return this.db.sql(PAGES.computeIfAbsent(resources, ChangeRepository::pageSql))
			.bind("partnerId", partnerId)
			.bind("afterTxid", Long.toString(afterTxid))
			.bind("afterSeq", afterSeq)
			.bind("limit", limit)
			.map(page::add)
			.all()
			// counted, not ignored: ignoring would pass each row's marker to the discard
			// hook, which looks up the subscriber context of every one
			.count()
			.map((rows) -> page.slice());
	}

	/**
	 * The page query; {@code resources} is a condition on {@code c.resource}
	 * ({@code true} when the key reads both). One row holds the horizon and the retention
	 * bound (and no change), read once by the statement, so that an empty page has them
	 * too; the page's changes follow in the order of their own branch of the
	 * {@code union all} (PostgreSQL appends a branch's rows as it returns them), read
	 * through the primary key. The per-row look-up of pending erasures runs only when the
	 * partner has one.
	 */
	static String pageSql(String resources) {
		return """
				with h as materialized (
				    select pg_snapshot_xmin(pg_current_snapshot()) as horizon,
				           (select kept_from from changes_kept) as kept_from,
				           exists (select 1 from user_erasures where partner_id = :partnerId and status = 'pending') as erasing
				)
				select h.horizon::text::bigint as horizon, h.kept_from::text::bigint as kept_from, null::bigint as txid,
				       null::bigint as seq, null::text as shown, null::text as user_id, null::text as item
				from h
				union all (
				    select null, null, c.txid::text::bigint, c.seq,
				           case when c.kind in ('created', 'updated') then c.resource end, c.user_id, c.item
				    from changes c
				    where c.partner_id = :partnerId and (c.txid, c.seq) > (cast(:afterTxid as text)::xid8, :afterSeq)
				      and c.txid < (select horizon from h)
				      and (c.kind = 'user_erased' or (%s))
				      and (c.kind = 'user_erased' or not (select erasing from h)
				           or not exists (select 1 from user_erasures e
				                          where e.partner_id = :partnerId and e.status = 'pending'
				                            and e.user_id = c.user_id and c.txid < e.cutoff))
				    order by c.txid, c.seq
				    limit :limit
				)
				"""
			.formatted(resources);
	}

	/**
	 * Marks changes below the first transaction of a change younger than {@code before}
	 * (or below the horizon when there is none) as no longer kept; returns that bound.
	 * Committed before anything is deleted, so that a cursor older than it is refused
	 * before its changes go. Each partner's first such change is found through the
	 * primary key, reading past only its changes that are about to go.
	 */
	Mono<Long> keepFrom(Instant before) {
		return this.db.sql("""
				update changes_kept set kept_from = greatest(kept_from, least(
				    coalesce((select min(f.txid) from partners p cross join lateral (
				                  select c.txid from changes c where c.partner_id = p.id and c.changed_at >= :before
				                  order by c.txid limit 1) f),
				             pg_snapshot_xmin(pg_current_snapshot())),
				    pg_snapshot_xmin(pg_current_snapshot())))
				returning kept_from::text::bigint as kept_from
				""").bind("before", before).map((row) -> row.get("kept_from", Long.class)).one();
	}

	/**
	 * Deletes up to {@code batch} changes below {@code keptFrom}, found partner by
	 * partner through the primary key; returns how many.
	 */
	Mono<Long> deleteBefore(long keptFrom, int batch) {
		return this.db
			.sql("""
					delete from changes where ctid = any(array(
					    select o.ctid from partners p cross join lateral (
					        select c.ctid from changes c where c.partner_id = p.id and c.txid < cast(:keptFrom as text)::xid8
					        limit :batch) o
					    limit :batch))
					""")
			.bind("keptFrom", Long.toString(keptFrom))
			.bind("batch", batch)
			.fetch()
			.rowsUpdated();
	}

	/**
	 * The rows of one page, read as they arrive: the horizon and the retention bound from
	 * the row without a change, and each change from its columns by position (in the
	 * order of {@link #pageSql}), sparing a look-up by name of each of a page's 500
	 * values.
	 */
	private static final class PageRows {

		private final List<ChangeRow> changes;

		private long horizon;

		private long keptFrom;

		PageRows(int limit) {
			this.changes = new ArrayList<>(limit);
		}

		Boolean add(Readable row) {
			Long txid = row.get(2, Long.class);
			if (txid == null) {
				this.horizon = row.get(0, Long.class);
				this.keptFrom = row.get(1, Long.class);
			}
			else {
				String shown = row.get(4, String.class);
				this.changes.add(new ChangeRow(txid, row.get(3, Long.class), shown,
						(shown != null) ? row.get(5, String.class) : null, row.get(6, byte[].class)));
			}
			return Boolean.TRUE;
		}

		Slice slice() {
			return new Slice(this.changes, this.horizon, this.keptFrom);
		}

	}

	/**
	 * Changes of a page (with one more than asked when more exist), the horizon they were
	 * read below, and the oldest transaction whose changes are all kept.
	 */
	record Slice(List<ChangeRow> changes, long horizon, long keptFrom) {
	}

}
