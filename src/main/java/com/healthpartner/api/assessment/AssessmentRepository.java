package com.healthpartner.api.assessment;

import java.time.Instant;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.audit.AuditEvent;
import com.healthpartner.api.audit.WriteEvents;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.LongReads;
import com.healthpartner.api.records.UserQuery;

/**
 * Assessments. Every query starts with the partner: a partner never reads another's rows,
 * whatever user id or record id it sends. Lists walk the index
 * {@code (partner_id, user_id, created_at, id)} from a keyset position, never an offset.
 */
@Repository
class AssessmentRepository {

	/**
	 * Rows fetched per round trip of a stream: the database sends the next batch only
	 * when the service asks, and the service asks when the client has taken the last.
	 * Each round trip leaves one side idle while the other works, so batches are large
	 * (bench/export.sh: with 250 rows a batch an export ran 30 to 50 % slower).
	 */
	static final int STREAM_FETCH_SIZE = 1000;

	private static final String COLUMNS = "id, user_id, responses::text as responses, created_at";

	private static final String INSERT = """
			with record as (
			  insert into assessments (id, partner_id, user_id, responses, created_at)
			  values (:id, :partnerId, :userId, cast(:responses as jsonb), :createdAt)
			  returning %s
			),
			%s
			select * from record
			""".formatted(COLUMNS, WriteEvents.insertFor("record"));

	private final DatabaseClient db;

	private final LongReads longReads;

	AssessmentRepository(DatabaseClient db, LongReads longReads) {
		this.db = db;
		this.longReads = longReads;
	}

	/** Stores a new assessment and, in the same statement, its audit event. */
	Mono<AssessmentRow> insert(UUID partnerId, AssessmentRow row, AuditEvent event) {
		return WriteEvents.bind(this.db.sql(INSERT), event)
			.bind("id", row.id())
			.bind("partnerId", partnerId)
			.bind("userId", row.userId())
			.bind("responses", row.responses())
			.bind("createdAt", row.createdAt())
			.map(AssessmentRepository::row)
			.one();
	}

	Mono<AssessmentRow> find(UUID partnerId, UUID id) {
		return this.db.sql("select %s from assessments where partner_id = :partnerId and id = :id".formatted(COLUMNS))
			.bind("partnerId", partnerId)
			.bind("id", id)
			.map(AssessmentRepository::row)
			.one();
	}

	/**
	 * At most {@code limit} assessments of a user after the query's position, oldest
	 * first.
	 */
	Flux<AssessmentRow> list(UserQuery query, int limit) {
		return query(query, true).bind("limit", limit).map(AssessmentRepository::row).all();
	}

	/**
	 * Every assessment of a user after the query's position, oldest first, in batches.
	 */
	Flux<AssessmentRow> stream(UserQuery query) {
		return this.longReads.stream(query(query, false).filter((statement) -> statement.fetchSize(STREAM_FETCH_SIZE))
			.map(AssessmentRepository::row)
			.all());
	}

	private DatabaseClient.GenericExecuteSpec query(UserQuery query, boolean limited) {
		Cursors.Position after = query.after();
		DatabaseClient.GenericExecuteSpec spec = this.db.sql(listSql(after != null, limited))
			.bind("partnerId", query.partnerId())
			.bind("userId", query.userId());
		return (after != null) ? spec.bind("afterAt", after.at()).bind("afterId", after.id()) : spec;
	}

	/**
	 * The list query. The keyset condition is left out rather than bound as null so that
	 * both variants are plain index range scans, also as cached generic plans.
	 */
	static String listSql(boolean after, boolean limited) {
		return """
				select %s from assessments
				where partner_id = :partnerId and user_id = :userId %s
				order by created_at, id
				%s
				""".formatted(COLUMNS, after ? "and (created_at, id) > (:afterAt, :afterId)" : "",
				limited ? "limit :limit" : "");
	}

	private static AssessmentRow row(Readable row) {
		return new AssessmentRow(row.get("id", UUID.class), row.get("user_id", String.class),
				row.get("responses", String.class), row.get("created_at", Instant.class));
	}

}
