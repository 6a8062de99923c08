package com.healthpartner.api.assessment;

import java.time.Instant;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.audit.AuditActor;
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
import com.healthpartner.api.system.DatabaseProperties;

/**
 * Assessments. Every query starts with the partner: a partner never reads another's rows,
 * whatever user id or record id it sends. Lists walk the index
 * {@code (partner_id, user_id, created_at, id)} from a keyset position, never an offset.
 */
@Repository
class AssessmentRepository implements RecordStore<AssessmentRow> {

	/**
	 * Rows fetched per round trip of a stream: the database sends the next batch only
	 * when the service asks, and the service asks when the client has taken the last.
	 * Each round trip leaves one side idle while the other works, so batches are large
	 * (bench/export.sh: with 250 rows a batch an export ran 30 to 50 % slower).
	 */
	static final int STREAM_FETCH_SIZE = 1000;

	private static final String COLUMNS = "id, user_id, client_record_id, client_record_version, responses::text as responses, "
			+ "created_at, coalesce(updated_at, created_at) as updated_at";

	private static final String UPSERT = RecordStatements.upsert("assessments", "assessments", "responses",
			"assessment_view", false, COLUMNS);

	private static final RecordStatements STATEMENTS = RecordStatements.of("assessments", "assessments", COLUMNS);

	private static final PageReads.Positional FIRST_PAGE_QUERY = PageReads.Positional.of(listSql(false, true));

	private static final PageReads.Positional PAGE_AFTER_QUERY = PageReads.Positional.of(listSql(true, true));

	private final DatabaseClient db;

	private final LongReads longReads;

	private final WriteBatches<AssessmentRow> writes;

	private final PageBatches pages;

	AssessmentRepository(DatabaseClient db, LongReads longReads, PageReads pages, DatabaseProperties database) {
		this.db = db;
		this.pages = new PageBatches(pages, (query) -> (query.after() != null) ? PAGE_AFTER_QUERY : FIRST_PAGE_QUERY,
				PageBatches.together("assessments", "created_at", false), database.statementDeadline(),
				database.maxWaitingPerLoop());
		this.longReads = longReads;
		this.writes = new WriteBatches<>(db, UPSERT, (spec, batch) -> spec, AssessmentRepository::row,
				database.statementDeadline(), database.maxWaitingPerLoop());
	}

	/**
	 * The one write of a posted assessment, in one statement with the writes of other
	 * requests under way at the same time ({@link WriteBatches}): the assessment is
	 * inserted or, for a client record id already stored with a lower version for the
	 * same user (and not hidden by an erasure), updated; its change and its audit event
	 * are written by the same statement, so all three commit together. Empty when nothing
	 * was written: {@link #byClientId} then tells why.
	 */
	@Override
	public Mono<Written<AssessmentRow>> upsert(UUID partnerId, AssessmentRow row, AuditActor actor) {
		return this.writes.write(partnerId, row, actor);
	}

	/**
	 * The record stored under a client record id, and whether an erasure hides it.
	 */
	@Override
	public Mono<Existing<AssessmentRow>> byClientId(UUID partnerId, String clientRecordId) {
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

	Mono<AssessmentRow> find(UUID partnerId, UUID id) {
		return this.db.sql(STATEMENTS.find())
			.bind("partnerId", partnerId)
			.bind("id", id)
			.map(AssessmentRepository::row)
			.one();
	}

	/**
	 * A page of at most {@code limit} assessments of a user after the query's position,
	 * oldest first, with their keyset position ({@link StoredPage}).
	 */
	Mono<StoredPage> page(UserQuery query, int limit) {
		return this.pages.page(query, limit);
	}

	/**
	 * The view of every assessment of a user after the query's position, oldest first,
	 * fetched in batches.
	 */
	Flux<String> stream(UserQuery query) {
		return this.longReads.stream(exportQuery(query).filter((statement) -> statement.fetchSize(STREAM_FETCH_SIZE))
			.map((row) -> row.get(0, String.class))
			.all());
	}

	private DatabaseClient.GenericExecuteSpec exportQuery(UserQuery query) {
		Cursors.Position after = query.after();
		DatabaseClient.GenericExecuteSpec spec = this.db.sql(listSql(after != null, false))
			.bind("partnerId", query.partnerId())
			.bind("userId", query.userId());
		return (after != null) ? spec.bind("afterAt", after.at()).bind("afterId", after.id()) : spec;
	}

	/**
	 * The list query: the assessments' stored views in list order, and for a page their
	 * position ({@code at}, {@code id}) and the limit. The keyset condition is left out
	 * rather than bound as null so that both variants are plain index range scans, also
	 * as cached generic plans.
	 */
	static String listSql(boolean after, boolean page) {
		return """
				select r.view%s from assessments r
				where partner_id = :partnerId and user_id = :userId and %s %s
				order by created_at, id
				%s
				""".formatted(page ? ", r.created_at as at, r.id" : "", Erasures.visible("r", ":partnerId", ":userId"),
				after ? "and (created_at, id) > (:afterAt, :afterId)" : "", page ? "limit :limit" : "");
	}

	/**
	 * An assessment from the first columns of a row, which every query that maps one
	 * selects first and in this order ({@link #COLUMNS}): by position, sparing a look-up
	 * by name of each value of a page.
	 */
	private static AssessmentRow row(Readable row) {
		return new AssessmentRow(row.get(0, UUID.class), row.get(1, String.class), row.get(2, String.class),
				row.get(3, Long.class), row.get(4, String.class), row.get(5, Instant.class), row.get(6, Instant.class));
	}

}
