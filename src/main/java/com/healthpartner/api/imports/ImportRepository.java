package com.healthpartner.api.imports;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpHeaders;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.webhook.WebhookOutbox;

/**
 * The imports of every partner, always read with the partner's id: a partner never sees
 * another's import.
 */
final class ImportRepository {

	private static final String COLUMNS = "id, resource, status, lines, processed, created, updated, unchanged, failed, "
			+ "detail, created_at, completed_at";

	private final DatabaseClient db;

	private final TransactionalOperator transaction;

	ImportRepository(DatabaseClient db, TransactionalOperator transaction) {
		this.db = db;
		this.transaction = transaction;
	}

	/**
	 * A new import, {@code receiving}, unless the partner already has {@code maxActive}
	 * imports receiving or processing (empty then). The count and the insert hold the
	 * partner's advisory lock, so two instances never both admit one over the limit.
	 */
	Mono<ImportRow> start(UUID id, RecordKind kind, AuditActor actor, String key, int maxActive) {
		return this.db.sql("select pg_advisory_xact_lock(hashtextextended(cast(:partnerId as text), 11))")
			.bind("partnerId", actor.partnerId())
			.then()
			.then(withKey(this.db
				.sql("""
						insert into imports (id, partner_id, key_id, request_id, resource, status, created_at, idempotency_key)
						select :id, :partnerId, :keyId, :requestId, :resource, 'receiving', :now, %s
						where (select count(*) from imports
						       where partner_id = :partnerId and status in ('receiving', 'processing')) < :maxActive
						returning %s
						"""
					.formatted((key != null) ? ":key" : "null", COLUMNS))
				.bind("id", id)
				.bind("partnerId", actor.partnerId())
				.bind("keyId", actor.keyId())
				.bind("requestId", actor.requestId())
				.bind("resource", kind.resource())
				.bind("now", actor.at())
				.bind("maxActive", (long) maxActive), key).map(ImportRow::of).one())
			.as(this.transaction::transactional)
			// a request with the same Idempotency-Key started the import in between
			.onErrorMap(DataIntegrityViolationException.class,
					(taken) -> new ApiException(ProblemType.IDEMPOTENCY_IN_PROGRESS,
							"The first request with this Idempotency-Key is still sending its import; retry shortly",
							List.of(), Map.of(HttpHeaders.RETRY_AFTER, "1")));
	}

	private static DatabaseClient.GenericExecuteSpec withKey(DatabaseClient.GenericExecuteSpec spec, String key) {
		return (key != null) ? spec.bind("key", key) : spec;
	}

	/**
	 * The whole body is stored: {@code lines} to apply, from now on by the worker; the
	 * audit trail has the import (created).
	 */
	Mono<ImportRow> received(UUID id, ImportLines.Stored stored, Instant now) {
		Long[] starts = java.util.Arrays.stream(stored.chunkStarts()).boxed().toArray(Long[]::new);
		return this.db.sql("""
				with stored as (
				    update imports set status = 'processing', lines = :lines, chunk_starts = :chunkStarts
				    where id = :id and status = 'receiving' returning *
				), audited as (%s)
				select %s from stored
				""".formatted(audit("stored", "0"), COLUMNS))
			.bind("id", id)
			.bind("lines", stored.lines())
			.bind("chunkStarts", starts)
			.bind("now", now)
			.map(ImportRow::of)
			.one();
	}

	/**
	 * What ends an import (the rows of CTE {@code ended}, as the statement changed them):
	 * its lines and chunk marks deleted, its audit event with the records it wrote.
	 */
	private static String letGo() {
		return """
				gone as (
				    delete from import_lines where import_id in (select id from ended)
				), chunks as (
				    delete from import_chunks where import_id in (select id from ended)
				), audited as (%s
				), hooked as (%s)""".formatted(audit("ended", "created + updated + unchanged"), WebhookOutbox
			.deliveries("ended", "import.completed", IMPORT_DATA, "array[s.resource || ':read']", null));
	}

	/** An ended import as the data of its {@code import.completed} message. */
	private static final String IMPORT_DATA = """
			json_build_object('import_id', s.id, 'kind', s.resource, 'status', s.status, 'lines', s.lines,
			                  'processed', s.processed, 'created', s.created, 'updated', s.updated,
			                  'unchanged', s.unchanged, 'failed', s.failed, 'detail', s.detail,
			                  'created_at', api_time(s.created_at), 'completed_at', api_time(s.completed_at))::text""";

	/**
	 * The statement that writes the audit event of an import from the rows of
	 * {@code source} (imports rows, as the statement changed them) at {@code :now}:
	 * {@code recordCount} records written, and the import's id, status and counts.
	 */
	private static String audit(String source, String recordCount) {
		return """
				insert into audit_events (id, at, partner_id, key_id, user_id, action, resource, record_count, request_id, import)
				select gen_random_uuid(), :now, partner_id, key_id, null, 'import', resource, %s, request_id,
				       jsonb_build_object('import_id', id, 'status', status, 'lines', lines, 'processed', processed,
				                          'created', created, 'updated', updated, 'unchanged', unchanged, 'failed', failed)
				from %s
				"""
			.formatted(recordCount, source);
	}

	/**
	 * The body could not be received whole (no {@code 202} was given): the import and
	 * whatever of it was stored are gone, as if never sent, and its slot is free.
	 */
	Mono<Void> drop(UUID id) {
		return this.db.sql("""
				with gone as (delete from imports where id = :id and status = 'receiving' returning id)
				delete from import_lines where import_id in (select id from gone)
				""").bind("id", id).then();
	}

	/**
	 * Drops the imports still {@code receiving} since before {@code startedBefore} whose
	 * receiving connection is gone (its instance died: the lock it held went with it);
	 * how many.
	 */
	Mono<Long> abandoned(Instant startedBefore) {
		return this.db.sql("""
				with gone as (
				    delete from imports
				    where status = 'receiving' and created_at < :before and pg_try_advisory_xact_lock(%s)
				    returning id
				), lines as (
				    delete from import_lines where import_id in (select id from gone)
				)
				select count(*) from gone
				""".formatted(ImportLines.RECEIVING_LOCK.formatted("id")))
			.bind("before", startedBefore)
			.map((row) -> row.get(0, Long.class))
			.one();
	}

	/**
	 * A chunk of the import failed on {@code me} with {@code detail}: the claim is let go
	 * until {@code retryAt}; at the {@code maxFailures}th failure in a row the import
	 * ends {@code failed} with the detail, its lines let go, in the audit trail with what
	 * it applied. Whether it ended.
	 */
	Mono<Boolean> failed(UUID id, UUID me, String detail, int maxFailures, Instant now, Instant retryAt) {
		return this.db.sql("""
				with bumped as (
				    update imports set failures = failures + 1, claimed_by = null, claimed_until = :retryAt,
				        status = case when failures + 1 >= :max then 'failed' else status end,
				        detail = case when failures + 1 >= :max then :detail else detail end,
				        completed_at = case when failures + 1 >= :max then :now else completed_at end
				    where id = :id and claimed_by = :me and status = 'processing' returning *
				), ended as (
				    select * from bumped where status = 'failed'
				), %s
				select count(*) from ended
				""".formatted(letGo()))
			.bind("id", id)
			.bind("me", me)
			.bind("detail", detail)
			.bind("max", maxFailures)
			.bind("now", now)
			.bind("retryAt", retryAt)
			.map((row) -> row.get(0, Long.class) > 0)
			.one();
	}

	Mono<ImportRow> find(UUID partnerId, UUID id) {
		return this.db.sql("select %s from imports where partner_id = :partnerId and id = :id".formatted(COLUMNS))
			.bind("partnerId", partnerId)
			.bind("id", id)
			.map(ImportRow::of)
			.one();
	}

	/**
	 * At most {@code limit} imports of a partner of the given kinds, newest first, after
	 * {@code after} (null: from the newest).
	 */
	Flux<ImportRow> list(UUID partnerId, List<String> resources, Cursors.Position after, int limit) {
		String position = (after != null) ? " and (created_at, id) < (:afterAt, :afterId)" : "";
		DatabaseClient.GenericExecuteSpec spec = this.db.sql("""
				select %s from imports
				where partner_id = :partnerId and resource = any(cast(:resources as text[]))%s
				order by created_at desc, id desc limit :limit
				""".formatted(COLUMNS, position))
			.bind("partnerId", partnerId)
			.bind("resources", resources.toArray(String[]::new))
			.bind("limit", limit);
		if (after != null) {
			spec = spec.bind("afterAt", after.at()).bind("afterId", after.id());
		}
		return spec.map(ImportRow::of).all();
	}

	/**
	 * The refused lines of an import, each as the errors resource shows it, in line
	 * order.
	 */
	Flux<String> errors(UUID id) {
		return this.db.sql("select item from import_errors where import_id = :id order by line")
			.bind("id", id)
			.map((row) -> row.get(0, String.class))
			.all();
	}

	/** The import an {@code Idempotency-Key} of the partner started. */
	Mono<ImportRow> byKey(UUID partnerId, String key) {
		return this.db
			.sql("select %s from imports where partner_id = :partnerId and idempotency_key = :key".formatted(COLUMNS))
			.bind("partnerId", partnerId)
			.bind("key", key)
			.map(ImportRow::of)
			.one();
	}

	/**
	 * Claims the oldest import to apply that no instance holds (or whose holder let its
	 * claim run out) for {@code me} until {@code until}; empty when there is none.
	 */
	Mono<Claimed> claim(UUID me, Instant now, Instant until) {
		return this.db.sql("""
				update imports set claimed_by = :me, claimed_until = :until
				where id = (select id from imports
				            where status = 'processing' and (claimed_until is null or claimed_until < :now)
				            order by created_at limit 1 for update skip locked)
				returning id, partner_id, key_id, request_id, resource, chunk_starts
				""")
			.bind("me", me)
			.bind("now", now)
			.bind("until", until)
			.map((row) -> new Claimed(row.get("id", UUID.class), row.get("partner_id", UUID.class),
					row.get("key_id", UUID.class), row.get("request_id", String.class),
					row.get("resource", String.class), row.get("chunk_starts", Long[].class)))
			.one();
	}

	/** The first lines of the chunks of an import already applied. */
	Mono<Long[]> applied(UUID id) {
		return this.db.sql("select array(select first_line from import_chunks where import_id = :id)")
			.bind("id", id)
			.map((row) -> row.get(0, Long[].class))
			.one();
	}

	/**
	 * The stored lines of an import from {@code first} to {@code last}, in order, blank
	 * ones left out. A row holds the lines of a chunk from its first ({@code line}) on,
	 * joined by line feeds ({@link CopyRows}); a row stored before V38 holds one line.
	 */
	Flux<Line> lines(UUID id, long first, long last) {
		return this.db
			.sql("""
					select line, body from import_lines where import_id = :id and line between :first and :last order by line
					""")
			.bind("id", id)
			.bind("first", first)
			.bind("last", last)
			.map((row) -> split(row.get("line", Long.class), row.get("body", String.class)))
			.all()
			.concatMapIterable((lines) -> lines);
	}

	/** The lines of a stored row, numbered from {@code first}, blank ones left out. */
	static List<Line> split(long first, String body) {
		String[] texts = body.split("\n", -1);
		List<Line> lines = new ArrayList<>(texts.length);
		for (int i = 0; i < texts.length; i++) {
			if (!texts[i].isEmpty()) {
				lines.add(new Line(first + i, texts[i]));
			}
		}
		return lines;
	}

	/** The refused lines of a chunk, each as the errors resource shows it. */
	Mono<Void> refused(UUID id, long[] lines, String[] items) {
		if (lines.length == 0) {
			return Mono.empty();
		}
		Long[] boxed = new Long[lines.length];
		for (int i = 0; i < lines.length; i++) {
			boxed[i] = lines[i];
		}
		return this.db.sql("""
				insert into import_errors (import_id, line, item)
				select :id, line, item from unnest(cast(:lines as bigint[]), cast(:items as text[])) as u(line, item)
				""").bind("id", id).bind("lines", boxed).bind("items", items).then();
	}

	/**
	 * The progress of a chunk, in its transaction: the chunk marked applied and the
	 * import's counts; 1 when {@code me} still held the import, else 0 (another instance
	 * took it over, and the chunk must roll back).
	 */
	Mono<Long> progress(UUID id, UUID me, Chunk chunk, Instant until) {
		return this.db.sql("""
				with counted as (
				    update imports set processed = processed + :processed,
				        created = created + :created, updated = updated + :updated, unchanged = unchanged + :unchanged,
				        failed = failed + :failed, claimed_until = :until, failures = 0
				    where id = :id and claimed_by = :me and status = 'processing'
				    returning id
				), applied as (
				    insert into import_chunks (import_id, first_line) select id, :firstLine from counted
				)
				select count(*) from counted
				""")
			.bind("id", id)
			.bind("me", me)
			.bind("processed", chunk.processed())
			.bind("firstLine", chunk.firstLine())
			.bind("created", chunk.created())
			.bind("updated", chunk.updated())
			.bind("unchanged", chunk.unchanged())
			.bind("failed", chunk.failed())
			.bind("until", until)
			.map((row) -> row.get(0, Long.class))
			.one();
	}

	/**
	 * Every line applied: {@code completed}, its lines let go, in the audit trail with
	 * its counts.
	 */
	Mono<Long> complete(UUID id, UUID me, Instant now) {
		return this.db
			.sql("""
					with ended as (
					    update imports set status = 'completed', completed_at = :now, claimed_by = null, claimed_until = null
					    where id = :id and claimed_by = :me and status = 'processing' returning *
					), %s
					select count(*) from ended
					"""
				.formatted(letGo()))
			.bind("id", id)
			.bind("me", me)
			.bind("now", now)
			.map((row) -> row.get(0, Long.class))
			.one();
	}

	/**
	 * An import claimed to be applied, in chunks that begin at {@code chunkStarts} (each
	 * runs to the line before the next).
	 */
	record Claimed(UUID id, UUID partnerId, UUID keyId, String requestId, String resource, Long[] chunkStarts) {
	}

	/** A stored line. */
	record Line(long line, String body) {
	}

	/** What a chunk did. */
	record Chunk(long firstLine, long processed, long created, long updated, long unchanged, long failed) {
	}

}
