package com.healthpartner.api.records;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Readable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.json.DateRange;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.LockWaits;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.system.PositionedViews;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Pages that wait while a statement is under way are read together in the next statement,
 * and each is exactly the page it would be alone: its partner's and user's records in its
 * range, after its position, within its limit, never a row of another page; a page that
 * fails there fails alone.
 */
class PageBatchesTest extends IntegrationTest {

	private static final long HOLD = 727_274;

	/** Longer than any test: a held statement holds its lane. */
	private static final Duration NO_STALL = Duration.ofMinutes(5);

	/** The service's default statement deadline (APP_DATABASE_STATEMENT_DEADLINE). */
	private static final Duration DEADLINE = Duration.ofSeconds(2);

	/**
	 * The service's default bound of the requests waiting in a lane
	 * (APP_DATABASE_MAX_WAITING_PER_LOOP).
	 */
	private static final int MAX_WAITING = 16384;

	private static final Instant T0 = Instant.parse("2026-03-01T08:00:00Z");

	@Autowired
	private DatabaseClient db;

	@Autowired
	private ConnectionFactory connections;

	private final List<Stored> stored = new ArrayList<>();

	private UUID ann;

	private UUID bob;

	private Counting reads;

	@BeforeEach
	void records() {
		this.ann = UUID.fromString(this.partners.onboard("loadtest").partnerId());
		this.bob = UUID.fromString(this.partners.onboard("loadtest").partnerId());
		// one user id at both partners; equal times at ann's, whose order falls to the id
		for (int day : List.of(0, 1, 2, 2, 2, 3, 5, 8)) {
			store(this.ann, "member", T0.plus(Duration.ofDays(day)));
		}
		for (int day : List.of(1, 2, 4)) {
			store(this.bob, "member", T0.plus(Duration.ofDays(day)));
		}
		store(this.ann, "other", T0);
		this.reads = new Counting(this.connections);
	}

	@Test
	void pagesWaitingForAStatementAreReadTogetherEachAsItWouldBeAlone() {
		PageBatches batches = metrics(MAX_WAITING, DEADLINE);
		Stored third = mine(this.ann, "member").get(2);
		List<Asked> asked = List.of(new Asked(query(this.ann, "member", DateRange.ANY, null), 3),
				new Asked(query(this.bob, "member", DateRange.ANY, null), 100),
				new Asked(query(this.ann, "member", DateRange.ANY, null), 8),
				new Asked(query(this.ann, "member", DateRange.ANY, null), 9),
				new Asked(query(this.ann, "member", DateRange.ANY, new Cursors.Position(third.at(), third.id())), 2),
				new Asked(query(this.ann, "member", range("2026-03-02", "2026-03-05"), null), 100),
				new Asked(query(this.ann, "member", range(null, "2026-03-03"), null), 2),
				new Asked(query(this.ann, "member", range("2026-03-03", null),
						new Cursors.Position(third.at(), third.id())), 1),
				new Asked(query(this.bob, "member", range("2026-03-03", null), null), 100),
				new Asked(query(this.ann, "nobody", DateRange.ANY, null), 100),
				new Asked(query(this.ann, "other", DateRange.ANY, null), 1));
		List<CompletableFuture<StoredPage>> answers = new ArrayList<>();
		try (Held held = hold(batches)) {
			for (Asked page : asked) {
				answers.add(batches.page(page.query(), page.limit()).toFuture());
			}
			assertThat(answers).noneMatch(CompletableFuture::isDone);
			held.release();
			assertThat(held.first().join()).isEqualTo(expected(held.query(), 100));
		}
		for (int i = 0; i < asked.size(); i++) {
			assertThat(answers.get(i).join()).as("page %d", i)
				.isEqualTo(expected(asked.get(i).query(), asked.get(i).limit()));
		}
		// the held page alone, then every other page in one statement
		assertThat(this.reads.statements).containsExactly(1, asked.size());
		// a full page tells where the next starts; the record beyond the limit is counted
		StoredPage first = answers.get(0).join();
		assertThat(first.found()).isEqualTo(4);
		assertThat(first.lastId()).isEqualTo(third.id());
		assertThat(answers.get(3).join().found()).isEqualTo(8);
		assertThat(answers.get(3).join().lastId()).isNull();
	}

	@Test
	void aPositionKeepsItsMicrosecondsOnEitherSideOf2000AndAViewItsUtf8() {
		// a page is one value whose positions are PostgreSQL's binary times, counted in
		// microseconds from 2000-01-01: one before, one after, read alone and together
		Instant before = Instant.parse("1999-12-31T23:59:59.999999Z");
		Instant after = Instant.parse("2026-03-01T08:00:00.123456Z");
		store(this.ann, "mëmber-é", before);
		store(this.ann, "mëmber-é", after);
		PageBatches batches = metrics(MAX_WAITING, DEADLINE);
		UserQuery all = query(this.ann, "mëmber-é", DateRange.ANY, null);
		UserQuery next = query(this.ann, "mëmber-é", DateRange.ANY,
				new Cursors.Position(before, mine(this.ann, "mëmber-é").get(0).id()));
		StoredPage first = batches.page(all, 1).toFuture().join();
		assertThat(first).isEqualTo(expected(all, 1));
		assertThat(first.lastAt()).isEqualTo(before);
		assertThat(first.texts().get(0)).contains("\"user_id\":\"mëmber-é\"");
		List<CompletableFuture<StoredPage>> answers = new ArrayList<>();
		try (Held held = hold(batches)) {
			answers.add(batches.page(all, 1).toFuture());
			answers.add(batches.page(next, 1).toFuture());
			answers.add(batches.page(all, 2).toFuture());
			held.release();
			held.first().join();
		}
		assertThat(answers.get(0).join()).isEqualTo(first);
		assertThat(answers.get(1).join()).isEqualTo(expected(next, 1));
		assertThat(answers.get(1).join().lastAt()).isEqualTo(after);
		assertThat(answers.get(2).join()).isEqualTo(expected(all, 2));
		assertThat(this.reads.statements).containsExactly(1, 1, 3);
	}

	@Test
	void assessmentsAreReadTogetherInTheirOwnOrder() {
		UUID partner = this.ann;
		List<UUID> ids = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			ids.add(this.db.sql("""
					insert into assessments (id, partner_id, user_id, responses, created_at, view)
					values (:id, :partner, 'member', '{"q": 1}', :at,
					  assessment_view(:id, 'member', null, null, '{"q": 1}', api_time(:at), api_time(:at)))
					returning id
					""")
				.bind("id", UUID.randomUUID())
				.bind("partner", partner)
				.bind("at", T0.plus(Duration.ofHours(5 - i)))
				.map((row) -> row.get("id", UUID.class))
				.one()
				.block());
		}
		PageBatches batches = new PageBatches(this.reads, alone("assessments", "created_at"),
				PageBatches.together("assessments", "created_at", false), MAX_WAITING, Duration.ofSeconds(10),
				NO_STALL);
		try (Held held = hold(batches)) {
			CompletableFuture<StoredPage> two = batches.page(query(partner, "member", DateRange.ANY, null), 2)
				.toFuture();
			CompletableFuture<StoredPage> all = batches.page(query(this.bob, "member", DateRange.ANY, null), 10)
				.toFuture();
			CompletableFuture<StoredPage> mine = batches.page(query(partner, "member", DateRange.ANY, null), 10)
				.toFuture();
			held.release();
			held.first().join();
			// oldest first: the last inserted is the oldest
			assertThat(mine.join().views()).hasSize(5);
			for (int i = 0; i < 5; i++) {
				assertThat(mine.join().texts().get(i)).contains("\"id\":\"" + ids.get(4 - i) + "\"");
			}
			assertThat(mine.join().found()).isEqualTo(5);
			assertThat(mine.join().lastId()).isNull();
			assertThat(two.join().texts()).isEqualTo(mine.join().texts().subList(0, 2));
			assertThat(two.join().found()).isEqualTo(3);
			assertThat(two.join().lastId()).isEqualTo(ids.get(3));
			assertThat(two.join().lastAt()).isEqualTo(T0.plus(Duration.ofHours(2)));
			assertThat(all.join().views()).isEmpty();
			assertThat(this.reads.statements).containsExactly(1, 3);
		}
	}

	@Test
	void aPageCancelledWhileItWaitsIsLeftOut() {
		PageBatches batches = metrics(MAX_WAITING, DEADLINE);
		try (Held held = hold(batches)) {
			CompletableFuture<StoredPage> kept = batches.page(query(this.ann, "member", DateRange.ANY, null), 5)
				.toFuture();
			batches.page(query(this.bob, "member", DateRange.ANY, null), 5).subscribe().dispose();
			CompletableFuture<StoredPage> other = batches.page(query(this.ann, "other", DateRange.ANY, null), 5)
				.toFuture();
			held.release();
			held.first().join();
			assertThat(kept.join()).isEqualTo(expected(query(this.ann, "member", DateRange.ANY, null), 5));
			assertThat(other.join()).isEqualTo(expected(query(this.ann, "other", DateRange.ANY, null), 5));
		}
		assertThat(this.reads.statements).containsExactly(1, 2);
	}

	@Test
	void aStatementHoldsPagesUpToItsRowsAndTheRestGoNext() {
		PageBatches batches = metrics(MAX_WAITING, DEADLINE);
		List<CompletableFuture<StoredPage>> answers = new ArrayList<>();
		try (Held held = hold(batches)) {
			// 1,001 rows asked for each: eight fit in one statement (8,192 rows), the
			// ninth goes next
			for (int i = 0; i < 9; i++) {
				answers.add(batches.page(query(this.ann, "member", DateRange.ANY, null), 1000).toFuture());
			}
			held.release();
			held.first().join();
		}
		StoredPage all = expected(query(this.ann, "member", DateRange.ANY, null), 1000);
		assertThat(answers).allSatisfy((answer) -> assertThat(answer.join()).isEqualTo(all));
		assertThat(this.reads.statements).containsExactly(1, 8, 1);
	}

	@Test
	void aPageThatFailsInAStatementOfSeveralFailsAloneAndTheOthersAreRead() {
		PageBatches batches = metrics(MAX_WAITING, DEADLINE);
		CompletableFuture<StoredPage> good;
		CompletableFuture<StoredPage> bad;
		CompletableFuture<StoredPage> other;
		try (Held held = hold(batches)) {
			good = batches.page(query(this.ann, "member", DateRange.ANY, null), 4).toFuture();
			// a negative limit (the API refuses it before reading) fails the statement
			bad = batches.page(query(this.bob, "member", DateRange.ANY, null), -5).toFuture();
			other = batches.page(query(this.bob, "member", DateRange.ANY, null), 4).toFuture();
			held.release();
			held.first().join();
		}
		assertThat(good.join()).isEqualTo(expected(query(this.ann, "member", DateRange.ANY, null), 4));
		assertThat(other.join()).isEqualTo(expected(query(this.bob, "member", DateRange.ANY, null), 4));
		assertThatThrownBy(bad::join).hasMessageContaining("LIMIT must not be negative");
		assertThat(this.reads.statements).containsExactly(1, 3, 1, 1, 1);
	}

	@Test
	void aPageTheStatementGivesNoRowFailsRatherThanAnswerAsAPageOfNoRecords() {
		PageReads.Positional together = PageBatches.together("metric_records", "recorded_at", true);
		// the statement of pages together, but one that gives only its first page a row
		PageReads.Positional firstOnly = new PageReads.Positional(
				"select * from (" + together.sql() + ") p where p.n = 1", together.names());
		PageBatches batches = new PageBatches(this.reads, alone("metric_records", "recorded_at"), firstOnly,
				MAX_WAITING, DEADLINE, NO_STALL);
		CompletableFuture<StoredPage> first;
		CompletableFuture<StoredPage> second;
		try (Held held = hold(batches)) {
			first = batches.page(query(this.ann, "member", DateRange.ANY, null), 4).toFuture();
			second = batches.page(query(this.bob, "member", DateRange.ANY, null), 4).toFuture();
			held.release();
			held.first().join();
		}
		assertThat(first.join()).isEqualTo(expected(query(this.ann, "member", DateRange.ANY, null), 4));
		assertThatThrownBy(second::join).hasCauseInstanceOf(IllegalStateException.class)
			.hasMessageContaining("gave page 2 of 2 no row");
		assertThat(this.reads.statements).containsExactly(1, 2);
	}

	@Test
	void aPageReadAloneByAStatementThatGivesNoRowFailsRatherThanAnswerAsNoPage() {
		PageReads.Positional none = PageReads.Positional.of("select " + PositionedViews.column("metric_records",
				"recorded_at", "r.partner_id = :partnerId and r.user_id = :userId", ":limit") + " where false");
		StepVerifier.create(this.reads.page(none, query(this.ann, "member", DateRange.ANY, null), 4))
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("read alone gave no row"))
			.verify(Duration.ofSeconds(10));
	}

	@Test
	void beyondThePagesThatMayWaitAPageIsRefusedAtOnceAsTheDatabaseBeingUnavailable() {
		PageBatches batches = metrics(2, DEADLINE);
		try (Held held = hold(batches)) {
			List<CompletableFuture<StoredPage>> waiting = List.of(
					batches.page(query(this.ann, "member", DateRange.ANY, null), 5).toFuture(),
					batches.page(query(this.bob, "member", DateRange.ANY, null), 5).toFuture());
			CompletableFuture<StoredPage> refused = batches.page(query(this.ann, "other", DateRange.ANY, null), 5)
				.toFuture();
			assertThat(refused).isCompletedExceptionally();
			assertThatThrownBy(refused::join).hasCauseInstanceOf(DataAccessResourceFailureException.class)
				.hasMessageContaining("Too many page reads are waiting");
			held.release();
			held.first().join();
			assertThat(waiting).allSatisfy((answer) -> assertThat(answer.join().views()).isNotEmpty());
		}
	}

	@Test
	void aStatementPastItsDeadlineFailsItsPagesAndTheNextStatementGoesOn() {
		PageBatches batches = metrics(MAX_WAITING, Duration.ofSeconds(1));
		try (Held held = hold(batches)) {
			// given up on after its deadline, not when the database answers again
			assertThatThrownBy(() -> held.first().get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(TimeoutException.class);
			held.release();
			assertThat(batches.page(query(this.bob, "member", DateRange.ANY, null), 5).block())
				.isEqualTo(expected(query(this.bob, "member", DateRange.ANY, null), 5));
		}
	}

	@Test
	void pagesWaitingBehindAStalledStatementGoInASecondOneButNeverInAThird() throws Exception {
		PageBatches batches = new PageBatches(this.reads, alone("metric_records", "recorded_at"),
				PageBatches.together("metric_records", "recorded_at", true), MAX_WAITING, DEADLINE,
				Duration.ofMillis(200));
		try (Held held = hold(batches)) {
			// waiting behind the held statement until it stalls, then read beside it
			CompletableFuture<StoredPage> ann = batches.page(query(this.ann, "member", DateRange.ANY, null), 3)
				.toFuture();
			CompletableFuture<StoredPage> bob = batches.page(query(this.bob, "member", DateRange.ANY, null), 3)
				.toFuture();
			assertThat(ann.get(10, TimeUnit.SECONDS))
				.isEqualTo(expected(query(this.ann, "member", DateRange.ANY, null), 3));
			assertThat(bob.get(10, TimeUnit.SECONDS))
				.isEqualTo(expected(query(this.bob, "member", DateRange.ANY, null), 3));
			assertThat(held.first()).isNotDone();
			assertThat(this.reads.statements).containsExactly(1, 2);

			// a second held page stalls beside the first: the next page waits for one of
			// them
			CompletableFuture<StoredPage> second = batches.page(query(this.bob, "holder", DateRange.ANY, null), 5)
				.toFuture();
			assertThat(Eventually.eventually(Duration.ofSeconds(10), () -> LockWaits.count(this.db) == 2)).isTrue();
			CompletableFuture<StoredPage> third = batches.page(query(this.ann, "other", DateRange.ANY, null), 5)
				.toFuture();
			// past the second's stall (200 ms) too, neither a third statement nor an
			// answer
			assertThat(Eventually.throughout(Duration.ofMillis(600),
					() -> !third.isDone() && this.reads.statements.equals(List.of(1, 2, 1))))
				.as("the third page waits, statements %s", this.reads.statements)
				.isTrue();
			held.release();
			assertThat(third.get(10, TimeUnit.SECONDS))
				.isEqualTo(expected(query(this.ann, "other", DateRange.ANY, null), 5));
			assertThat(second.get(10, TimeUnit.SECONDS).views()).isEmpty();
			assertThat(held.first().join().views()).isEmpty();
		}
		assertThat(this.reads.statements).containsExactly(1, 2, 1, 1);
	}

	@Test
	void concurrentPagesOfTwoPartnersWithTheSameUserIdEachShowTheirOwnRecords() throws Exception {
		Credentials carol = this.partners.onboard("loadtest");
		Credentials dave = this.partners.onboard("loadtest");
		HealthApi api = new HealthApi(this.client);
		Map<String, List<String>> written = Map.of(carol.apiKey(), new ArrayList<>(), dave.apiKey(), new ArrayList<>());
		for (int i = 0; i < 6; i++) {
			for (Credentials partner : List.of(carol, dave)) {
				written.get(partner.apiKey())
					.add(this.client.post()
						.uri(HealthApi.METRICS)
						.header("x-api-key", partner.apiKey())
						.bodyValue(Map.of("user_id", "shared-member", "metrics", Map.of("weight", 60 + i),
								"recorded_at", T0.plus(Duration.ofDays(i)).toString()))
						.exchange()
						.expectStatus()
						.isCreated()
						.expectBody(Map.class)
						.returnResult()
						.getResponseBody()
						.get("id")
						.toString());
			}
		}
		List<String> failures = new CopyOnWriteArrayList<>();
		ExecutorService clients = Executors.newFixedThreadPool(24);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int c = 0; c < 24; c++) {
				String key = (c % 2 == 0) ? carol.apiKey() : dave.apiKey();
				int limit = 1 + c % 7;
				done.add(clients.submit(() -> {
					for (int i = 0; i < 15; i++) {
						List<Map<String, Object>> records = api.allPages(key,
								HealthApi.METRICS + "?user_id={user}&limit=" + limit, "shared-member");
						List<String> ids = records.stream().map((record) -> (String) record.get("id")).toList();
						if (!ids.equals(written.get(key))) {
							failures.add(key + " limit " + limit + " read " + ids);
						}
					}
				}));
			}
			for (Future<?> client : done) {
				client.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			clients.shutdownNow();
		}
		assertThat(failures).isEmpty();
	}

	/** A page as the test's records say it is. */
	private StoredPage expected(UserQuery query, int limit) {
		List<Stored> found = mine(query.partnerId(), query.userId()).stream()
			.filter((record) -> query.range().from() == null || !record.at().isBefore(query.range().from()))
			.filter((record) -> query.range().until() == null || record.at().isBefore(query.range().until()))
			.filter((record) -> query.after() == null || ORDER.compare(record,
					new Stored(null, null, null, query.after().at(), query.after().id().toString(), null)) > 0)
			.limit(limit + 1L)
			.toList();
		List<byte[]> views = found.stream()
			.limit(limit)
			.map((record) -> record.view().getBytes(StandardCharsets.UTF_8))
			.toList();
		Stored last = (found.size() >= limit) ? found.get(limit - 1) : null;
		return new StoredPage(views, found.size(), (last != null) ? last.at() : null,
				(last != null) ? last.id() : null);
	}

	/**
	 * A partner's records of a user in list order: time, then id as PostgreSQL orders it.
	 */
	private List<Stored> mine(UUID partner, String user) {
		return this.stored.stream()
			.filter((record) -> record.partner().equals(partner) && record.user().equals(user))
			.sorted(ORDER)
			.toList();
	}

	private static final Comparator<Stored> ORDER = Comparator.comparing(Stored::at).thenComparing(Stored::idText);

	private void store(UUID partner, String user, Instant at) {
		UUID id = UUID.randomUUID();
		String view = this.db.sql("""
				insert into metric_records (id, partner_id, user_id, metrics, recorded_at, created_at, view)
				values (:id, :partner, :user, '{"weight": 70}', :at, :at,
				  metric_view(:id, :user, null, null, '{"weight": 70}', api_time(:at), api_time(:at), api_time(:at)))
				returning view
				""")
			.bind("id", id)
			.bind("partner", partner)
			.bind("user", user)
			.bind("at", at)
			.map((row) -> row.get("view", String.class))
			.one()
			.block();
		this.stored.add(new Stored(id, partner, user, at, id.toString(), view));
	}

	private static UserQuery query(UUID partner, String user, DateRange range, Cursors.Position after) {
		return new UserQuery(partner, user, range, after);
	}

	private static DateRange range(String from, String until) {
		return new DateRange((from != null) ? Instant.parse(from + "T00:00:00Z") : null,
				(until != null) ? Instant.parse(until + "T00:00:00Z") : null, false);
	}

	/**
	 * Pages of metrics records, one statement under way at a time however long it takes.
	 */
	private PageBatches metrics(int maxWaiting, Duration deadline) {
		return new PageBatches(this.reads, alone("metric_records", "recorded_at"),
				PageBatches.together("metric_records", "recorded_at", true), maxWaiting, deadline, NO_STALL);
	}

	/**
	 * A page alone, of {@code table} in the order of {@code time}: the held user's waits
	 * for the test's advisory lock; any other is a plain first page (the tests read no
	 * other page alone).
	 */
	private static Function<UserQuery, PageReads.Positional> alone(String table, String time) {
		return (query) -> PageReads.Positional.of("select " + PositionedViews.column(table, time,
				"r.partner_id = :partnerId and r.user_id = :userId" + ("holder".equals(query.userId())
						? " and (select pg_advisory_xact_lock_shared(" + HOLD + ")::text) is not null" : ""),
				":limit"));
	}

	/**
	 * Takes the test's advisory lock, then starts the page of user {@code holder}, which
	 * waits for it: the pages asked for next wait for its statement.
	 */
	private Held hold(PageBatches batches) {
		Connection blocker = Mono.from(this.connections.create()).block();
		Flux.from(blocker.createStatement("select pg_advisory_lock(" + HOLD + ")").execute())
			.flatMap((result) -> result.map((row) -> row))
			.blockLast();
		UserQuery first = query(this.ann, "holder", DateRange.ANY, null);
		Held held = new Held(blocker, first, batches.page(first, 100).toFuture());
		assertThat(Eventually.eventually(Duration.ofSeconds(10), () -> LockWaits.count(this.db) == 1)).isTrue();
		return held;
	}

	/** The lock the held page waits for, and that page. */
	private record Held(Connection blocker, UserQuery query,
			CompletableFuture<StoredPage> first) implements AutoCloseable {

		void release() {
			Flux.from(this.blocker.createStatement("select pg_advisory_unlock_all()").execute())
				.flatMap((result) -> result.map((row) -> row))
				.blockLast();
		}

		@Override
		public void close() {
			release();
			Mono.from(this.blocker.close()).block();
		}

	}

	/** A page the test asks for. */
	private record Asked(UserQuery query, int limit) {
	}

	/** A record the test stored. */
	private record Stored(UUID id, UUID partner, String user, Instant at, String idText, String view) {
	}

	/** Page reads that count the pages of each statement they run. */
	static final class Counting extends PageReads {

		final List<Integer> statements = new CopyOnWriteArrayList<>();

		Counting(ConnectionFactory connections) {
			super(connections);
		}

		@Override
		public Mono<StoredPage> page(Positional statement, UserQuery query, int limit) {
			this.statements.add(1);
			return super.page(statement, query, limit);
		}

		@Override
		public Mono<Void> rows(Positional statement, Function<String, Object> values, Consumer<Readable> rows) {
			this.statements.add(((Object[]) values.apply("partnerIds")).length);
			return super.rows(statement, values, rows);
		}

	}

}
