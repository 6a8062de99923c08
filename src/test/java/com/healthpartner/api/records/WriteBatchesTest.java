package com.healthpartner.api.records;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Readable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.records.RecordStore.Written;
import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.LockWaits;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Writes that wait while a statement is under way go together in the next statement, one
 * transaction, and each still gets its own outcome, change and audit event; a write that
 * fails there fails alone.
 */
class WriteBatchesTest extends IntegrationTest {

	private static final Instant RECORDED = Instant.parse("2026-11-20T08:00:00Z");

	/** The service's default statement deadline (APP_DATABASE_STATEMENT_DEADLINE). */
	private static final Duration DEADLINE = Duration.ofSeconds(2);

	/**
	 * The service's default bound of the requests waiting in a lane
	 * (APP_DATABASE_MAX_WAITING_PER_LOOP).
	 */
	private static final int MAX_WAITING = 16384;

	@Autowired
	private DatabaseClient db;

	@Autowired
	private ConnectionFactory connections;

	@Test
	void writesWaitingForAStatementAreWrittenTogetherEachWithItsOwnOutcome() {
		Credentials partner = this.partners.onboard("loadtest");
		UUID partnerId = UUID.fromString(partner.partnerId());
		AuditActor actor = new AuditActor(partnerId, UUID.fromString(partner.keyId()), "seed", Instant.now());
		WriteBatches<Metrics> batches = batches();
		Metrics kept = write(batches, partnerId, record("ann", "kept", 1L), actor).orElseThrow().row();
		write(batches, partnerId, record("ann", "same", 2L), actor).orElseThrow();
		write(batches, partnerId, record("bob", "bobs", 1L), actor).orElseThrow();

		// the first write waits for a row another transaction holds; the others queue
		// behind its statement
		try (Held held = holdFirstWrite(batches, partnerId)) {
			CompletableFuture<Optional<Written<Metrics>>> first = held.first();

			Map<String, Metrics> queued = new java.util.LinkedHashMap<>();
			for (int i = 0; i < 10; i++) {
				queued.put("new-" + i, record("user-" + i, null, null));
			}
			queued.put("c1", record("ann", "c1", 1L));
			queued.put("c2", record("cat", "c2", 7L));
			queued.put("kept", record("ann", "kept", 2L));
			queued.put("same", record("ann", "same", 2L));
			queued.put("bobs", record("ann", "bobs", 9L));
			queued.put("c1 again", record("ann", "c1", 2L));
			Map<String, CompletableFuture<Optional<Written<Metrics>>>> answers = new java.util.LinkedHashMap<>();
			queued.forEach((name, record) -> answers.put(name, submit(batches, partnerId, record, actor(name))));

			held.release();
			assertThat(first.join()).hasValueSatisfying((written) -> assertThat(written.inserted()).isTrue());
			for (int i = 0; i < 10; i++) {
				Written<Metrics> written = answers.get("new-" + i).join().orElseThrow();
				assertThat(written.inserted()).isTrue();
				assertThat(written.row()).isEqualTo(queued.get("new-" + i));
			}
			assertThat(answers.get("c1").join().orElseThrow().inserted()).isTrue();
			assertThat(answers.get("c2").join().orElseThrow().row()).isEqualTo(queued.get("c2"));
			Written<Metrics> update = answers.get("kept").join().orElseThrow();
			assertThat(update.inserted()).isFalse();
			assertThat(update.row().id()).isEqualTo(kept.id());
			assertThat(update.row().clientRecordVersion()).isEqualTo(2L);
			assertThat(answers.get("same").join()).isEmpty();
			assertThat(answers.get("bobs").join()).isEmpty();
			// a second write of one client record id waits for the next statement
			Written<Metrics> again = answers.get("c1 again").join().orElseThrow();
			assertThat(again.inserted()).isFalse();
			assertThat(again.row().id()).isEqualTo(queued.get("c1").id());
			assertThat(again.row().clientRecordVersion()).isEqualTo(2L);

			// one transaction for the queued writes but the second of c1, with a change
			// for
			// each record written
			assertThat(this.db.sql("""
					select kind, record_id from changes
					where partner_id = :partnerId
					  and txid = (select txid from changes where partner_id = :partnerId and record_id = :c2)
					""")
				.bind("partnerId", partnerId)
				.bind("c2", queued.get("c2").id())
				.map((row) -> row.get("kind", String.class) + " " + row.get("record_id", UUID.class))
				.all()
				.collectList()
				.block())
				.hasSize(13)
				.contains("updated " + kept.id(), "created " + queued.get("c1").id(),
						"created " + queued.get("new-9").id())
				.filteredOn((change) -> change.startsWith("updated"))
				.hasSize(1);
			assertThat(this.db.sql("""
					select request_id from audit_events
					where partner_id = :partnerId and action = 'write' and request_id not in ('seed', 'first')
					""")
				.bind("partnerId", partnerId)
				.map((row) -> row.get("request_id", String.class))
				.all()
				.collectList()
				.block()).hasSize(14).doesNotContain("same", "bobs").contains("kept", "c1", "c1 again", "new-9");
		}
	}

	@Test
	void aWriteThatFailsInAStatementOfSeveralFailsAloneAndTheOthersAreWritten() {
		Credentials partner = this.partners.onboard("loadtest");
		UUID partnerId = UUID.fromString(partner.partnerId());
		WriteBatches<Metrics> batches = batches();
		try (Held held = holdFirstWrite(batches, partnerId)) {
			CompletableFuture<Optional<Written<Metrics>>> first = held.first();
			List<Metrics> good = List.of(record("ann", null, null), record("bob", "b", 1L), record("cat", null, null));
			List<CompletableFuture<Optional<Written<Metrics>>>> answers = new ArrayList<>();
			answers.add(submit(batches, partnerId, good.get(0), actor("good-0")));
			// a user id longer than the table allows (the API refuses it before writing)
			CompletableFuture<Optional<Written<Metrics>>> bad = submit(batches, partnerId,
					record("x".repeat(200), null, null), actor("bad"));
			answers.add(submit(batches, partnerId, good.get(1), actor("good-1")));
			answers.add(submit(batches, partnerId, good.get(2), actor("good-2")));
			held.release();

			assertThat(first.join()).isPresent();
			assertThatThrownBy(bad::join).isInstanceOf(CompletionException.class)
				.hasCauseInstanceOf(DataIntegrityViolationException.class);
			for (int i = 0; i < good.size(); i++) {
				assertThat(answers.get(i).join())
					.hasValueSatisfying((written) -> assertThat(written.inserted()).isTrue());
			}
			assertThat(this.db.sql("""
					select (select count(*) from metric_records where partner_id = :partnerId and user_id <> 'holder')
					     + (select count(*) from changes where partner_id = :partnerId)
					     + (select count(*) from audit_events where partner_id = :partnerId and action = 'write')
					  as stored
					""").bind("partnerId", partnerId).map((row) -> row.get("stored", Long.class)).one().block())
				.isEqualTo(3L * 4);
		}
	}

	@Test
	void aWriteCancelledWhileItWaitsIsNotWritten() {
		Credentials partner = this.partners.onboard("loadtest");
		UUID partnerId = UUID.fromString(partner.partnerId());
		WriteBatches<Metrics> batches = batches();
		try (Held held = holdFirstWrite(batches, partnerId)) {
			CompletableFuture<Optional<Written<Metrics>>> first = held.first();
			Metrics kept = record("ann", null, null);
			Metrics dropped = record("bob", null, null);
			CompletableFuture<Optional<Written<Metrics>>> answer = submit(batches, partnerId, kept, actor("kept"));
			batches.write(partnerId, dropped, actor("dropped")).subscribe().dispose();
			held.release();

			assertThat(first.join()).isPresent();
			assertThat(answer.join()).isPresent();
			assertThat(this.db.sql("""
					select (select count(*) from metric_records where id = :dropped)
					     + (select count(*) from audit_events where partner_id = :partnerId and request_id = 'dropped')
					  as stored
					""")
				.bind("dropped", dropped.id())
				.bind("partnerId", partnerId)
				.map((row) -> row.get("stored", Long.class))
				.one()
				.block()).isZero();
		}
	}

	@Test
	void beyondTheWritesThatMayWaitAWriteIsRefusedAtOnceAsTheDatabaseBeingUnavailable() {
		Credentials partner = this.partners.onboard("loadtest");
		UUID partnerId = UUID.fromString(partner.partnerId());
		WriteBatches<Metrics> batches = batches(2, DEADLINE);
		try (Held held = holdFirstWrite(batches, partnerId)) {
			CompletableFuture<Optional<Written<Metrics>>> first = held.first();
			List<CompletableFuture<Optional<Written<Metrics>>>> waiting = List.of(
					submit(batches, partnerId, record("ann", null, null), actor("w1")),
					submit(batches, partnerId, record("bob", null, null), actor("w2")));
			CompletableFuture<Optional<Written<Metrics>>> refused = submit(batches, partnerId,
					record("cat", null, null), actor("refused"));
			assertThat(refused).isCompletedExceptionally();
			assertThatThrownBy(refused::join).hasCauseInstanceOf(DataAccessResourceFailureException.class)
				.hasMessageContaining("Too many record writes are waiting");
			held.release();
			assertThat(first.join()).isPresent();
			assertThat(waiting).allSatisfy((answer) -> assertThat(answer.join()).isPresent());
		}
	}

	@Test
	void writesWaitingBehindAStalledStatementGoInASecondOne() throws Exception {
		Credentials partner = this.partners.onboard("loadtest");
		UUID partnerId = UUID.fromString(partner.partnerId());
		WriteBatches<Metrics> batches = batches(MAX_WAITING, DEADLINE, Duration.ofMillis(200));
		try (Held held = holdFirstWrite(batches, partnerId)) {
			CompletableFuture<Optional<Written<Metrics>>> first = held.first();
			CompletableFuture<Optional<Written<Metrics>>> ann = submit(batches, partnerId, record("ann", null, null),
					actor("ann"));
			CompletableFuture<Optional<Written<Metrics>>> bob = submit(batches, partnerId, record("bob", "b", 1L),
					actor("bob"));
			// written beside the held statement once it stalls, not after it
			assertThat(ann.get(10, TimeUnit.SECONDS))
				.hasValueSatisfying((written) -> assertThat(written.inserted()).isTrue());
			assertThat(bob.get(10, TimeUnit.SECONDS))
				.hasValueSatisfying((written) -> assertThat(written.inserted()).isTrue());
			assertThat(first).isNotDone();
			held.release();
			assertThat(first.join()).isPresent();
		}
	}

	@Test
	void aStatementPastItsDeadlineFailsItsWritesAndTheNextStatementGoesOn() {
		Credentials partner = this.partners.onboard("loadtest");
		UUID partnerId = UUID.fromString(partner.partnerId());
		WriteBatches<Metrics> batches = batches(MAX_WAITING, Duration.ofSeconds(1));
		try (Held held = holdFirstWrite(batches, partnerId)) {
			CompletableFuture<Optional<Written<Metrics>>> first = held.first();
			// given up on after its deadline, not when the database answers again
			assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(TimeoutException.class);
			held.release();
			// the database answers again: the loop's writes go on
			assertThat(submit(batches, partnerId, record("bob", null, null), actor("next")).join()).isPresent();
		}
	}

	/**
	 * Holds client record id {@code held} of the partner in an open transaction, then
	 * starts a write of it, which waits until that transaction ends: the writes that
	 * follow wait for its statement.
	 */
	private Held holdFirstWrite(WriteBatches<Metrics> batches, UUID partnerId) {
		Connection blocker = Mono.from(this.connections.create()).block();
		Mono.from(blocker.beginTransaction()).block();
		Flux.from(blocker
			.createStatement("insert into metric_records (id, partner_id, user_id, client_record_id, "
					+ "client_record_version, metrics, recorded_at, created_at, view) "
					+ "values ($1, $2, 'holder', 'held', 1, '{}', now(), now(), metric_view($1, 'holder', 'held', 1, "
					+ "'{}', api_time(now()), api_time(now()), api_time(now())))")
			.bind("$1", UUID.randomUUID())
			.bind("$2", partnerId)
			.execute()).flatMap((result) -> result.getRowsUpdated()).blockLast();
		Held held = new Held(blocker, submit(batches, partnerId, record("ann", "held", 1L), actor("first")));
		assertThat(Eventually.eventually(Duration.ofSeconds(10), () -> LockWaits.count(this.db) == 1)).isTrue();
		return held;
	}

	/** A row held by {@code blocker}, and the first write, which waits for it. */
	private record Held(Connection blocker,
			CompletableFuture<Optional<Written<Metrics>>> first) implements AutoCloseable {

		/** Ends the transaction that holds the row: the first write goes on. */
		void release() {
			Mono.from(this.blocker.rollbackTransaction()).block();
		}

		@Override
		public void close() {
			release();
			Mono.from(this.blocker.close()).block();
		}

	}

	/**
	 * Batches of the metrics records' statement with one statement under way at a time,
	 * however long it takes.
	 */
	private WriteBatches<Metrics> batches() {
		return batches(MAX_WAITING, DEADLINE);
	}

	private WriteBatches<Metrics> batches(int maxWaiting, Duration deadline) {
		return batches(maxWaiting, deadline, Duration.ofMinutes(5));
	}

	private WriteBatches<Metrics> batches(int maxWaiting, Duration deadline, Duration stall) {
		return new WriteBatches<>(this.db, RecordStatements.upsert(com.healthpartner.api.metric.Metrics.KIND),
				(spec, batch) -> spec
					.bind("recordedAts", batch.stream().map((write) -> RECORDED).toArray(Instant[]::new))
					.bind("recordedAtTexts",
							batch.stream().map((write) -> "2026-11-20T08:00:00Z").toArray(String[]::new)),
				WriteBatchesTest::read, maxWaiting, deadline, stall);
	}

	private static Optional<Written<Metrics>> write(WriteBatches<Metrics> batches, UUID partnerId, Metrics record,
			AuditActor actor) {
		return batches.write(partnerId, record, actor).blockOptional();
	}

	private static CompletableFuture<Optional<Written<Metrics>>> submit(WriteBatches<Metrics> batches, UUID partnerId,
			Metrics record, AuditActor actor) {
		return batches.write(partnerId, record, actor).map(Optional::of).defaultIfEmpty(Optional.empty()).toFuture();
	}

	private AuditActor actor(String requestId) {
		return new AuditActor(null, UUID.randomUUID(), requestId, Instant.parse("2026-11-24T10:00:00Z"));
	}

	private static Metrics record(String userId, String clientRecordId, Long version) {
		return new Metrics(UUID.randomUUID(), userId, clientRecordId, version, "{\"weight\": 72.5}", RECORDED,
				Instant.parse("2026-11-24T10:00:00Z"));
	}

	private static Metrics read(Readable row) {
		return new Metrics(row.get(0, UUID.class), row.get(1, String.class), row.get(2, String.class),
				row.get(3, Long.class), row.get(4, String.class), row.get(5, Instant.class), row.get(6, Instant.class));
	}

	/** A metrics record as these tests write it. */
	record Metrics(UUID id, String userId, String clientRecordId, Long clientRecordVersion, String content,
			Instant recordedAt, Instant createdAt) implements RecordStore.Stored {
	}

}
