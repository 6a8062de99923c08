package com.healthpartner.api.records;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

import org.springframework.dao.DataAccessResourceFailureException;

import com.healthpartner.api.system.PeriodicFlush;
import com.healthpartner.api.web.LoopTimer;

/**
 * The list pages that concurrent requests read, read together: one statement for all the
 * pages of one kind of record waiting when a statement can start, whatever their
 * partners, users, date ranges, positions and limits. Each page is still the page its
 * request asked for, read in the statement's one snapshot, and each request gets its own
 * answer; nothing is cached.
 *
 * <p>
 * Part of what a page costs the database is the statement around its rows (its messages,
 * its transaction, its snapshot, its portal), and part of what it costs the service is
 * the statement too (a pooled connection, the statement's text tokenized by the driver,
 * its parameters, its round trip); pages in one statement share that. No request waits
 * for a batch to fill: a page is read at once while fewer than {@value #IN_FLIGHT}
 * statements of its event loop are under way, by the list's own statement for one page;
 * otherwise it goes with the next statement, which starts as soon as one of them ends,
 * before the pages of the one that ended are answered.
 *
 * <p>
 * The statement of several pages ({@code together}) takes one array per parameter, an
 * element per page, and reads each page in a lateral sub-query of the arrays' rows
 * numbered by {@code with ordinality}: its columns are that number, then the record's
 * view, ordering time and id. Every page's partner is its own request's, bound like every
 * other parameter; a row goes to the page its number names, and to no other.
 */
public final class PageBatches {

	/** Statements of one event loop under way at once, on connections of its pool. */
	static final int IN_FLIGHT = 2;

	/**
	 * The most rows one statement may return (the sum of its pages' limits, each plus
	 * one); a page of a larger limit goes alone.
	 */
	static final int MAX_ROWS = 2048;

	/**
	 * The most pages waiting for a statement of one event loop; beyond, a page is refused
	 * at once ({@code 503}) rather than held behind a database that does not keep up.
	 */
	static final int MAX_WAITING = 1024;

	/**
	 * How long a statement may take before its pages fail ({@code 503}) and its place is
	 * free: PostgreSQL ends a statement at its time limit itself, but a database that
	 * stops answering would otherwise hold the loop's pages forever.
	 */
	static final Duration STATEMENT_DEADLINE = PeriodicFlush.WRITE_DEADLINE;

	private final PageReads reads;

	private final Function<UserQuery, PageReads.Positional> alone;

	private final PageReads.Positional together;

	private final int inFlight;

	private final int maxWaiting;

	private final Duration deadline;

	private final Map<EventExecutor, Lane> lanes = new ConcurrentHashMap<>();

	private final Lane otherThreads = new Lane();

	/**
	 * Pages read by {@code reads}: one alone by the statement {@code alone} gives for its
	 * query ({@link PageReads#page}), several by {@code together}, whose parameters are
	 * named as in {@link #value}.
	 */
	public PageBatches(PageReads reads, Function<UserQuery, PageReads.Positional> alone,
			PageReads.Positional together) {
		this(reads, alone, together, IN_FLIGHT, MAX_WAITING, STATEMENT_DEADLINE);
	}

	/**
	 * As above, with {@code inFlight} statements of a loop under way at once, at most
	 * {@code maxWaiting} pages waiting, and {@code deadline} for a statement.
	 */
	PageBatches(PageReads reads, Function<UserQuery, PageReads.Positional> alone, PageReads.Positional together,
			int inFlight, int maxWaiting, Duration deadline) {
		this.reads = reads;
		this.alone = alone;
		this.together = together;
		this.inFlight = inFlight;
		this.maxWaiting = maxWaiting;
		this.deadline = deadline;
	}

	/**
	 * The statement of several pages of the records of {@code table}, listed in the order
	 * of {@code time} (their ordering time), then {@code id}, from the index on
	 * {@code (partner_id, user_id, time, id)}; {@code dated}: a page may give a range of
	 * that time ({@code froms}, {@code untils}). Each page is what the list's statement
	 * alone reads: absent bounds and positions are open ends ({@code coalesce}), so that
	 * every page's rows are one index range whatever it gives.
	 */
	public static PageReads.Positional together(String table, String time, boolean dated) {
		String range = dated ? " and r." + time + " >= coalesce(q.from_at, '-infinity') and r." + time
				+ " < coalesce(q.until_at, 'infinity')" : "";
		return PageReads.Positional.of("""
				select q.n, r.view, r.%2$s, r.id
				from unnest(:partnerIds::uuid[], :userIds::text[], %3$s:afterAts::timestamptz[], :afterIds::uuid[],
				  :limits::int8[]) with ordinality as q(partner_id, user_id, %4$safter_at, after_id, page_rows, n)
				cross join lateral (
				  select r.view, r.%2$s, r.id from %1$s r
				  where r.partner_id = q.partner_id and r.user_id = q.user_id and %5$s%6$s
				  and (r.%2$s, r.id) > (coalesce(q.after_at, '-infinity'),
				    coalesce(q.after_id, '00000000-0000-0000-0000-000000000000'))
				  order by r.%2$s, r.id
				  limit q.page_rows) r
				""".formatted(table, time, dated ? ":froms::timestamptz[], :untils::timestamptz[], " : "",
				dated ? "from_at, until_at, " : "", Erasures.visible("r", "q.partner_id", "q.user_id"), range));
	}

	/**
	 * The page of at most {@code limit} records that {@code query} asks for, read alone
	 * or with the pages of other requests ({@link StoredPage}).
	 */
	public Mono<StoredPage> page(UserQuery query, int limit) {
		return Mono.<StoredPage>create((sink) -> lane().add(new Pending(query, limit, sink)));
	}

	private Lane lane() {
		EventExecutor current = ThreadExecutorMap.currentExecutor();
		if (current == null) {
			return this.otherThreads;
		}
		Lane lane = this.lanes.get(current);
		return (lane != null) ? lane : this.lanes.computeIfAbsent(current, (key) -> new Lane());
	}

	/**
	 * Reads {@code batch}: a page alone by its list's statement, several by the statement
	 * of pages together. Completes once every page of the batch has its rows; fails after
	 * the deadline.
	 */
	private Mono<Void> read(List<Pending> batch) {
		return Mono.defer(() -> {
			if (batch.size() == 1) {
				Pending page = batch.get(0);
				return this.reads.page(this.alone.apply(page.query), page.query, page.limit)
					.doOnNext((stored) -> page.read = stored)
					.then();
			}
			Together pages = new Together(batch);
			return this.reads.rows(this.together, pages::value, pages::add).doOnSuccess((done) -> pages.finish());
		}).timeout(LoopTimer.after(this.deadline));
	}

	/**
	 * A page waiting for its statement, with its request's answer. A page whose request
	 * is cancelled while it waits (its client gone, its deadline passed) is left out of
	 * the statement.
	 */
	private static final class Pending {

		private final UserQuery query;

		private final int limit;

		private final MonoSink<StoredPage> sink;

		private volatile boolean cancelled;

		private StoredPage read;

		private Throwable failure;

		Pending(UserQuery query, int limit, MonoSink<StoredPage> sink) {
			this.query = query;
			this.limit = limit;
			this.sink = sink;
			sink.onCancel(() -> this.cancelled = true);
		}

		/** The rows the statement asks for this page: one beyond the limit. */
		int rows() {
			return this.limit + 1;
		}

	}

	/**
	 * The pages of one statement of several: its parameters, an array each with an
	 * element per page, and each page's rows as they arrive.
	 */
	private static final class Together {

		private final List<Pending> pages;

		private final List<List<String>> views;

		private final int[] found;

		private final Instant[] lastAt;

		private final UUID[] lastId;

		Together(List<Pending> pages) {
			this.pages = pages;
			this.views = new ArrayList<>(pages.size());
			for (Pending page : pages) {
				this.views.add(new ArrayList<>(Math.max(0, Math.min(page.limit, 128))));
			}
			this.found = new int[pages.size()];
			this.lastAt = new Instant[pages.size()];
			this.lastId = new UUID[pages.size()];
		}

		/**
		 * The statement's parameter {@code name}: an array of the pages' partners, users,
		 * date ranges, positions (null where a page has none) or limits (each plus one).
		 */
		Object value(String name) {
			int size = this.pages.size();
			return switch (name) {
				case "partnerIds" -> each(new UUID[size], (query) -> query.partnerId());
				case "userIds" -> each(new String[size], UserQuery::userId);
				case "froms" -> each(new Instant[size], (query) -> query.range().from());
				case "untils" -> each(new Instant[size], (query) -> query.range().until());
				case "afterAts" ->
					each(new Instant[size], (query) -> (query.after() != null) ? query.after().at() : null);
				case "afterIds" -> each(new UUID[size], (query) -> (query.after() != null) ? query.after().id() : null);
				case "limits" -> {
					Long[] limits = new Long[size];
					for (int i = 0; i < size; i++) {
						limits[i] = (long) this.pages.get(i).rows();
					}
					yield limits;
				}
				default -> throw new IllegalArgumentException("Pages read together have no parameter " + name);
			};
		}

		private <T> T[] each(T[] values, Function<UserQuery, T> value) {
			for (int i = 0; i < values.length; i++) {
				values[i] = value.apply(this.pages.get(i).query);
			}
			return values;
		}

		/**
		 * A row of the statement: the page its first column numbers (from 1), then the
		 * record's view, ordering time and id. Only the record that ends a full page has
		 * its position decoded, and the record beyond a page's limit only counted.
		 */
		void add(Readable row) {
			int page = row.get(0, Long.class).intValue() - 1;
			int limit = this.pages.get(page).limit;
			int found = ++this.found[page];
			if (found <= limit) {
				this.views.get(page).add(row.get(1, String.class));
			}
			if (found == limit) {
				this.lastAt[page] = row.get(2, Instant.class);
				this.lastId[page] = row.get(3, UUID.class);
			}
		}

		/** Each page as read, for its request to answer. */
		void finish() {
			for (int i = 0; i < this.pages.size(); i++) {
				this.pages.get(i).read = new StoredPage(this.views.get(i), this.found[i], this.lastAt[i],
						this.lastId[i]);
			}
		}

	}

	/**
	 * The pages of one event loop (or of all other threads): those waiting, and how many
	 * statements are under way. Statements end on the loop that started them, but a
	 * request's cancellation or a timer may come from another thread, hence the lock.
	 */
	private final class Lane {

		private final ArrayDeque<Pending> waiting = new ArrayDeque<>();

		private int underWay;

		void add(Pending page) {
			List<Pending> batch;
			synchronized (this) {
				if (this.waiting.size() >= PageBatches.this.maxWaiting) {
					this.waiting.removeIf((waiting) -> waiting.cancelled);
					if (this.waiting.size() >= PageBatches.this.maxWaiting) {
						page.sink.error(new DataAccessResourceFailureException(
								"Too many page reads are waiting for the database"));
						return;
					}
				}
				this.waiting.add(page);
				if (this.underWay >= PageBatches.this.inFlight) {
					return;
				}
				batch = take();
			}
			if (batch != null) {
				start(batch);
			}
		}

		/**
		 * The next statement's pages, in the order they came, without a cancelled one and
		 * within {@link #MAX_ROWS} (but at least one page); counted as under way. Null
		 * when none wait.
		 */
		private List<Pending> take() {
			List<Pending> batch = null;
			int rows = 0;
			Iterator<Pending> pages = this.waiting.iterator();
			while (pages.hasNext()) {
				Pending page = pages.next();
				if (page.cancelled) {
					pages.remove();
					continue;
				}
				if (batch != null && rows + page.rows() > MAX_ROWS) {
					break;
				}
				pages.remove();
				batch = (batch != null) ? batch : new ArrayList<>(Math.min(this.waiting.size() + 1, 32));
				batch.add(page);
				rows += page.rows();
			}
			if (batch != null) {
				this.underWay++;
			}
			return batch;
		}

		/**
		 * Reads {@code batch}. When a statement of several pages fails for a reason of
		 * its own rather than of the database (see {@link WriteBatches#worthAlone}), each
		 * page is read again alone, so that no page fails for another's.
		 */
		private void start(List<Pending> batch) {
			read(batch).subscribe(null, (failure) -> {
				if (batch.size() > 1 && WriteBatches.worthAlone(failure)) {
					Flux.fromIterable(batch).flatMap((page) -> read(List.of(page)).onErrorResume((alone) -> {
						page.failure = alone;
						return Mono.empty();
					})).subscribe(null, null, () -> ended(batch));
					return;
				}
				for (Pending page : batch) {
					page.failure = failure;
				}
				ended(batch);
			}, () -> ended(batch));
		}

		/**
		 * A statement ended: the next one starts first, so that the database reads it
		 * while this loop answers the pages of the one that ended.
		 */
		private void ended(List<Pending> batch) {
			List<Pending> next;
			synchronized (this) {
				this.underWay--;
				next = take();
			}
			if (next != null) {
				start(next);
			}
			for (Pending page : batch) {
				if (page.failure != null) {
					page.sink.error(page.failure);
				}
				else {
					page.sink.success(page.read);
				}
			}
		}

	}

}
