package com.healthpartner.api.metric;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.json.DateRange;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.LongReads;
import com.healthpartner.api.records.Erasures;
import com.healthpartner.api.records.PageBatches;
import com.healthpartner.api.records.PageReads;
import com.healthpartner.api.records.RecordStatements;
import com.healthpartner.api.records.RecordStore;
import com.healthpartner.api.records.StoredPage;
import com.healthpartner.api.records.UserQuery;
import com.healthpartner.api.records.WriteBatches;
import com.healthpartner.api.records.WriteBatches.Pending;
import com.healthpartner.api.system.DatabaseProperties;

/**
 * Metrics records. Every query starts with the partner: a partner never reads another's
 * rows, whatever user id or record id it sends. Lists walk the index
 * {@code (partner_id, user_id, recorded_at, id)} from a keyset position, never an offset.
 */
@Repository
class MetricRepository implements RecordStore<MetricRow> {

	/**
	 * Rows fetched per round trip of a stream: the database sends the next batch only
	 * when the service asks, and the service asks when the client has taken the last.
	 * Each round trip leaves one side idle while the other works, so batches are large
	 * (bench/export.sh: with 250 rows a batch an export ran 30 to 50 % slower).
	 */
	static final int STREAM_FETCH_SIZE = 1000;

	private static final String COLUMNS = "id, user_id, client_record_id, client_record_version, metrics::text as metrics, "
			+ "recorded_at, created_at, coalesce(updated_at, created_at) as updated_at";

	private static final String UPSERT = RecordStatements.upsert("metric_records", "metrics", "metrics", "metric_view",
			true, COLUMNS);

	private static final RecordStatements STATEMENTS = RecordStatements.of("metric_records", "metrics", COLUMNS);

	/**
	 * The query of a page for each combination of filters (bits: from, until, after a
	 * position), written once.
	 */
	private static final List<PageReads.Positional> PAGE_QUERIES = IntStream.range(0, 8)
		.mapToObj((bits) -> PageReads.Positional.of(listSql((bits & 4) != 0, (bits & 2) != 0, (bits & 1) != 0, true)))
		.toList();

	private final DatabaseClient db;

	private final LongReads longReads;

	private final WriteBatches<MetricRow> writes;

	private final PageBatches pages;

	MetricRepository(DatabaseClient db, LongReads longReads, PageReads pages, DatabaseProperties database) {
		this.db = db;
		this.pages = new PageBatches(pages, MetricRepository::pageQuery,
				PageBatches.together("metric_records", "recorded_at", true), database.statementDeadline(),
				database.maxWaitingPerLoop());
		this.longReads = longReads;
		this.writes = new WriteBatches<>(db, UPSERT, MetricRepository::bindRecordedAt, MetricRepository::row,
				database.statementDeadline(), database.maxWaitingPerLoop());
	}

	/**
	 * The one write of a posted record, in one statement with the writes of other
	 * requests under way at the same time ({@link WriteBatches}): the record is inserted
	 * or, for a client record id already stored with a lower version for the same user
	 * (and not hidden by an erasure), updated; its change and its audit event are written
	 * by the same statement, so all three commit together. Empty when nothing was written
	 * (the stored version is the same or higher, or the id belongs to another user or an
	 * erased record): {@link #byClientId} then tells which.
	 */
	@Override
	public Mono<Written<MetricRow>> upsert(UUID partnerId, MetricRow row, AuditActor actor) {
		return this.writes.write(partnerId, row, actor);
	}

	/** Binds the batch's {@code recorded_at}, as a time and as the API writes it. */
	private static GenericExecuteSpec bindRecordedAt(GenericExecuteSpec spec, List<Pending<MetricRow>> batch) {
		Instant[] recordedAts = new Instant[batch.size()];
		String[] recordedAtTexts = new String[batch.size()];
		for (int i = 0; i < recordedAts.length; i++) {
			recordedAts[i] = batch.get(i).row().recordedAt();
			recordedAtTexts[i] = Timestamps.format(recordedAts[i]);
		}
		return spec.bind("recordedAts", recordedAts).bind("recordedAtTexts", recordedAtTexts);
	}

	/**
	 * The record stored under a client record id, and whether an erasure hides it.
	 */
	@Override
	public Mono<Existing<MetricRow>> byClientId(UUID partnerId, String clientRecordId) {
		return this.db.sql(STATEMENTS.byClientId())
			.bind("partnerId", partnerId)
			.bind("clientRecordId", clientRecordId)
			.map((row) -> new Existing<>(row(row), Boolean.TRUE.equals(row.get("visible", Boolean.class))))
			.one();
	}

	/**
	 * Deletes a record that a pending erasure hides (so that its client record id is free
	 * for a new record at once), counted with that erasure's deletions.
	 */
	@Override
	public Mono<Void> deleteErased(UUID partnerId, UUID id) {
		return this.db.sql(STATEMENTS.deleteErased()).bind("partnerId", partnerId).bind("id", id).then();
	}

	/**
	 * Deletes one visible record with its {@code deleted} change and audit event, in one
	 * statement; false when there was none.
	 */
	Mono<Boolean> delete(UUID partnerId, UUID id, AuditActor actor) {
		return actor.bind(this.db.sql(STATEMENTS.delete()).bind("partnerId", partnerId).bind("id", id))
			.map((row) -> row.get("deleted", Long.class))
			.one()
			.map((count) -> count > 0);
	}

	Mono<MetricRow> find(UUID partnerId, UUID id) {
		return this.db.sql(STATEMENTS.find())
			.bind("partnerId", partnerId)
			.bind("id", id)
			.map(MetricRepository::row)
			.one();
	}

	/**
	 * A page of at most {@code limit} records of a user after the query's position, in
	 * order, with their keyset position ({@link StoredPage}).
	 */
	Mono<StoredPage> page(UserQuery query, int limit) {
		return this.pages.page(query, limit);
	}

	/** The query of a page alone, for the filters it gives. */
	private static PageReads.Positional pageQuery(UserQuery query) {
		DateRange range = query.range();
		int variant = ((range.from() != null) ? 4 : 0) + ((range.until() != null) ? 2 : 0)
				+ ((query.after() != null) ? 1 : 0);
		return PAGE_QUERIES.get(variant);
	}

	/**
	 * The view of every record of a user after the query's position, in order, fetched in
	 * batches.
	 */
	Flux<String> stream(UserQuery query) {
		return this.longReads.stream(exportQuery(query).filter((statement) -> statement.fetchSize(STREAM_FETCH_SIZE))
			.map((row) -> row.get(0, String.class))
			.all());
	}

	private DatabaseClient.GenericExecuteSpec exportQuery(UserQuery query) {
		DateRange range = query.range();
		Cursors.Position after = query.after();
		DatabaseClient.GenericExecuteSpec spec = this.db.sql(listSql(range, after != null, false))
			.bind("partnerId", query.partnerId())
			.bind("userId", query.userId());
		if (range.from() != null) {
			spec = spec.bind("from", range.from());
		}
		if (range.until() != null) {
			spec = spec.bind("until", range.until());
		}
		if (after != null) {
			spec = spec.bind("afterAt", after.at()).bind("afterId", after.id());
		}
		return spec;
	}

	/**
	 * The list query: the records' stored views in list order, and for a page their
	 * position ({@code at}, {@code id}) and the limit. Absent filters are left out rather
	 * than bound as null so that every variant is a plain index range scan, also as a
	 * cached generic plan.
	 */
	static String listSql(DateRange range, boolean after, boolean page) {
		return listSql(range.from() != null, range.until() != null, after, page);
	}

	private static String listSql(boolean from, boolean until, boolean after, boolean page) {
		StringBuilder where = new StringBuilder("partner_id = :partnerId and user_id = :userId and ")
			.append(Erasures.visible("r", ":partnerId", ":userId"));
		if (from) {
			where.append(" and recorded_at >= :from");
		}
		if (until) {
			where.append(" and recorded_at < :until");
		}
		if (after) {
			where.append(" and (recorded_at, id) > (:afterAt, :afterId)");
		}
		return """
				select r.view%s from metric_records r
				where %s
				order by recorded_at, id
				%s
				""".formatted(page ? ", r.recorded_at as at, r.id" : "", where, page ? "limit :limit" : "");
	}

	/**
	 * A record from the first columns of a row, which every query that maps one selects
	 * first and in this order ({@link #COLUMNS}): by position, sparing a look-up by name
	 * of each value of a page.
	 */
	private static MetricRow row(Readable row) {
		return new MetricRow(row.get(0, UUID.class), row.get(1, String.class), row.get(2, String.class),
				row.get(3, Long.class), row.get(4, String.class), row.get(5, Instant.class), row.get(6, Instant.class),
				row.get(7, Instant.class));
	}

}
