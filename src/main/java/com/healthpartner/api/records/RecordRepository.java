package com.healthpartner.api.records;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.IntStream;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.json.DateRange;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.LongReads;
import com.healthpartner.api.records.WriteBatches.Pending;
import com.healthpartner.api.system.DatabaseProperties;
import com.healthpartner.api.system.PositionedViews;

/**
 * The records of one kind. Every query starts with the partner: a partner never reads
 * another's rows, whatever user id or record id it sends. Lists walk the index
 * {@code (partner_id, user_id, <ordered by>, id)} from a keyset position, never an
 * offset.
 */
public final class RecordRepository implements RecordStore<RecordRow> {

	/**
	 * Rows fetched per round trip of an export: each round trip leaves one side idle, so
	 * batches are large (bench/export.sh measures it).
	 */
	static final int STREAM_FETCH_SIZE = 1000;

	private final RecordKind kind;

	private final DatabaseClient db;

	private final LongReads longReads;

	private final RecordStatements statements;

	private final Function<Readable, RecordRow> reader;

	/**
	 * The query of a page for each combination of filters (bits: from, until, after a
	 * position), written once.
	 */
	private final List<PageReads.Positional> pageQueries;

	private final WriteBatches<RecordRow> writes;

	private final TogetherWrites together;

	private final PageBatches pages;

	public RecordRepository(RecordKind kind, DatabaseClient db, LongReads longReads, PageReads pageReads,
			DatabaseProperties database) {
		this.kind = kind;
		this.db = db;
		this.longReads = longReads;
		this.statements = RecordStatements.of(kind);
		this.reader = kind.dated() ? RecordRepository::datedRow : RecordRepository::row;
		this.pageQueries = IntStream.range(0, 8)
			.mapToObj((bits) -> PageReads.Positional
				.of(listSql(kind, (bits & 4) != 0, (bits & 2) != 0, (bits & 1) != 0, true)))
			.toList();
		this.pages = new PageBatches(pageReads, this::pageQuery,
				PageBatches.together(kind.table(), kind.orderedBy(), kind.dated()), database.statementDeadline(),
				database.maxWaitingPerLoop());
		String upsert = RecordStatements.upsert(kind);
		this.writes = new WriteBatches<>(db, upsert,
				kind.dated() ? RecordRepository::bindRecordedAt : (spec, batch) -> spec, this.reader,
				database.statementDeadline(), database.maxWaitingPerLoop());
		this.together = new TogetherWrites(db, kind);
	}

	public RecordKind kind() {
		return this.kind;
	}

	/**
	 * The one write of a posted record, in one statement with the writes of other
	 * requests under way at the same time ({@link WriteBatches}): inserted or, for a
	 * client record id already stored with a lower version for the same user (and not
	 * hidden by an erasure), updated; its change and its audit event are written by the
	 * same statement, so all three commit together. Empty when nothing was written:
	 * {@link #byClientId} then tells why.
	 */
	@Override
	public Mono<Written<RecordRow>> upsert(UUID partnerId, RecordRow row, AuditActor actor) {
		return this.writes.write(partnerId, row, actor);
	}

	/**
	 * The upserts of the records of one request ({@code rows}, whose client record ids
	 * all differ, all received at one time), in one statement of their own on the
	 * caller's transaction, each as {@link #upsert} writes it: the written record of each
	 * row, in order, null where nothing was written.
	 */
	Mono<List<TogetherWrites.Shown>> upsertTogether(UUID partnerId, List<RecordRow> rows, AuditActor actor) {
		return this.together.write(partnerId, rows, actor);
	}

	/** Binds the batch's {@code recorded_at}, as a time and as the API writes it. */
	private static GenericExecuteSpec bindRecordedAt(GenericExecuteSpec spec, List<Pending<RecordRow>> batch) {
		Instant[] recordedAts = new Instant[batch.size()];
		String[] recordedAtTexts = new String[batch.size()];
		for (int i = 0; i < recordedAts.length; i++) {
			recordedAts[i] = batch.get(i).row().recordedAt();
			recordedAtTexts[i] = Timestamps.format(recordedAts[i]);
		}
		return spec.bind("recordedAts", recordedAts).bind("recordedAtTexts", recordedAtTexts);
	}

	@Override
	public Mono<Existing<RecordRow>> byClientId(UUID partnerId, String clientRecordId) {
		return this.db.sql(this.statements.byClientId())
			.bind("partnerId", partnerId)
			.bind("clientRecordId", clientRecordId)
			.map((row) -> new Existing<>(this.reader.apply(row),
					Boolean.TRUE.equals(row.get("visible", Boolean.class))))
			.one();
	}

	@Override
	public Mono<Void> deleteErased(UUID partnerId, UUID id) {
		return this.db.sql(this.statements.deleteErased()).bind("partnerId", partnerId).bind("id", id).then();
	}

	/**
	 * Deletes one visible record with its {@code deleted} change and audit event, in one
	 * statement; false when there was none.
	 */
	Mono<Boolean> delete(UUID partnerId, UUID id, AuditActor actor) {
		return actor.bind(this.db.sql(this.statements.delete()).bind("partnerId", partnerId).bind("id", id))
			.map((row) -> row.get("deleted", Long.class))
			.one()
			.map((count) -> count > 0);
	}

	Mono<RecordRow> find(UUID partnerId, UUID id) {
		return this.db.sql(this.statements.find())
			.bind("partnerId", partnerId)
			.bind("id", id)
			.map(this.reader::apply)
			.one();
	}

	/**
	 * A page of at most {@code limit} records of a user after the query's position, in
	 * list order, with their keyset position ({@link StoredPage}).
	 */
	Mono<StoredPage> page(UserQuery query, int limit) {
		return this.pages.page(query, limit);
	}

	/** The query of a page alone, for the filters it gives. */
	private PageReads.Positional pageQuery(UserQuery query) {
		DateRange range = query.range();
		int variant = ((range.from() != null) ? 4 : 0) + ((range.until() != null) ? 2 : 0)
				+ ((query.after() != null) ? 1 : 0);
		return this.pageQueries.get(variant);
	}

	/**
	 * The view of every record of a user after the query's position, in list order, in
	 * UTF-8, fetched in batches.
	 */
	Flux<byte[]> stream(UserQuery query) {
		return this.longReads.stream(exportQuery(query).filter((statement) -> statement.fetchSize(STREAM_FETCH_SIZE))
			.map((row) -> row.get(0, byte[].class))
			.all());
	}

	private GenericExecuteSpec exportQuery(UserQuery query) {
		DateRange range = query.range();
		Cursors.Position after = query.after();
		GenericExecuteSpec spec = this.db
			.sql(listSql(this.kind, range.from() != null, range.until() != null, after != null, false))
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
	 * The list query of {@code kind}: the records' stored views in list order, a row each
	 * (an export); or, for a page of at most {@code :limit}, one row, the page as one
	 * value with each record's position ({@link PositionedViews#column}). Absent filters
	 * are left out rather than bound as null so that every variant is a plain index range
	 * scan, also as a cached generic plan.
	 */
	public static String listSql(RecordKind kind, boolean from, boolean until, boolean after, boolean page) {
		String at = kind.orderedBy();
		StringBuilder where = new StringBuilder("r.partner_id = :partnerId and r.user_id = :userId and ")
			.append(Erasures.visible("r", ":partnerId", ":userId"));
		if (from) {
			where.append(" and r.").append(at).append(" >= :from");
		}
		if (until) {
			where.append(" and r.").append(at).append(" < :until");
		}
		if (after) {
			where.append(" and (r.").append(at).append(", r.id) > (:afterAt, :afterId)");
		}
		if (page) {
			return "select " + PositionedViews.column(kind.table(), at, where.toString(), ":limit");
		}
		return """
				select r.view from %s r
				where %s
				order by r.%s, r.id
				""".formatted(kind.table(), where, at);
	}

	/**
	 * A record of a kind without {@code recorded_at} from the first columns of a row,
	 * which every query that maps one selects first and in this order
	 * ({@link RecordKind#columns}): by position, sparing a look-up by name of each value.
	 */
	private static RecordRow row(Readable row) {
		return new RecordRow(row.get(0, UUID.class), row.get(1, String.class), row.get(2, String.class),
				row.get(3, Long.class), row.get(4, String.class), null, row.get(5, Instant.class),
				row.get(6, Instant.class));
	}

	/** As {@link #row}, for a kind with {@code recorded_at}. */
	private static RecordRow datedRow(Readable row) {
		return new RecordRow(row.get(0, UUID.class), row.get(1, String.class), row.get(2, String.class),
				row.get(3, Long.class), row.get(4, String.class), row.get(5, Instant.class), row.get(6, Instant.class),
				row.get(7, Instant.class));
	}

}
