package com.healthpartner.api.records;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

import com.healthpartner.api.system.PositionedViews;

/**
 * The list pages that concurrent requests read, read together: one statement for all the
 * pages of one kind waiting when a statement can start, whatever their partners, users,
 * ranges, positions and limits, each page in a {@code lateral} sub-query over arrays (an
 * element per page), each row routed to the page its number names. Each request still
 * gets its own page; nothing is cached (docs/architecture.md, Writes and pages together).
 */
public final class PageBatches {

	/**
	 * The most records one statement may return (the sum of its pages' limits, each plus
	 * one); a page of a larger limit goes alone. At 2,048 the pages waiting on a loop
	 * under a few hundred connections went in several statements back to back, and pages
	 * cost more (docs/performance.md). The views are held until the statement ends: a few
	 * MB at a few hundred bytes a view, 512 MB were every view at the body limit.
	 */
	static final int MAX_ROWS = 8192;

	private final PageReads reads;

	private final Function<UserQuery, PageReads.Positional> alone;

	private final PageReads.Positional together;

	private final SharedStatements<Pending> statements;

	/**
	 * Pages read by {@code reads}: one alone by the statement {@code alone} gives for its
	 * query ({@link PageReads#page}), several by {@code together} ({@link #together}). A
	 * statement that has not ended after {@code deadline}
	 * ({@code APP_DATABASE_STATEMENT_DEADLINE}) fails its pages ({@code 503}) and frees
	 * its place: PostgreSQL ends a statement at its time limit itself, but a database
	 * that stops answering would otherwise hold the loop's pages forever. At most
	 * {@code maxWaiting} pages ({@code APP_DATABASE_MAX_WAITING_PER_LOOP}) wait for a
	 * statement of one event loop; beyond, a page is refused at once ({@code 503}).
	 */
	public PageBatches(PageReads reads, Function<UserQuery, PageReads.Positional> alone, PageReads.Positional together,
			Duration deadline, int maxWaiting) {
		this(reads, alone, together, maxWaiting, deadline, SharedStatements.STALL);
	}

	/**
	 * As above, with at most {@code maxWaiting} pages waiting, {@code deadline} for a
	 * statement, and a statement stalled after {@code stall}.
	 */
	PageBatches(PageReads reads, Function<UserQuery, PageReads.Positional> alone, PageReads.Positional together,
			int maxWaiting, Duration deadline, Duration stall) {
		this.reads = reads;
		this.alone = alone;
		this.together = together;
		// a page's place in the queue does not matter: under a load the database cannot
		// keep up with, the newest go first (SharedStatements)
		this.statements = new SharedStatements<>("page reads", PageBatches::take, this::read, maxWaiting, deadline,
				stall, true);
	}

	/**
	 * The statement of several pages of the records of {@code table}, listed in the order
	 * of {@code time} (their ordering time), then {@code id}, from the index on
	 * {@code (partner_id, user_id, time, id)}; {@code dated}: a page may give a range of
	 * that time ({@code froms}, {@code untils}). A row a page: its number, then the page
	 * as one value ({@link PositionedViews#column}). Each page is what the list's
	 * statement alone reads: absent bounds and positions are open ends
	 * ({@code coalesce}), so that every page's records are one index range whatever it
	 * gives.
	 */
	public static PageReads.Positional together(String table, String time, boolean dated) {
		String range = dated ? " and r." + time + " >= coalesce(q.from_at, '-infinity') and r." + time
				+ " < coalesce(q.until_at, 'infinity')" : "";
		String where = "r.partner_id = q.partner_id and r.user_id = q.user_id and "
				+ Erasures.visible("r", "q.partner_id", "q.user_id") + range + " and (r." + time
				+ ", r.id) > (coalesce(q.after_at, '-infinity'), coalesce(q.after_id, '00000000-0000-0000-0000-000000000000'))";
		return PageReads.Positional.of("""
				select q.n, %s
				from unnest(:partnerIds::uuid[], :userIds::text[], %s:afterAts::timestamptz[], :afterIds::uuid[],
				  :limits::int8[]) with ordinality as q(partner_id, user_id, %safter_at, after_id, page_rows, n)
				""".formatted(PositionedViews.column(table, time, where, "q.page_rows"),
				dated ? ":froms::timestamptz[], :untils::timestamptz[], " : "", dated ? "from_at, until_at, " : ""));
	}

	/**
	 * The page of at most {@code limit} records that {@code query} asks for, read alone
	 * or with the pages of other requests ({@link StoredPage}).
	 */
	public Mono<StoredPage> page(UserQuery query, int limit) {
		return Mono.<StoredPage>create((sink) -> this.statements.add(new Pending(query, limit, sink)));
	}

	/**
	 * The next statement's pages, in the order they came, within {@link #MAX_ROWS}
	 * records (but at least one page).
	 */
	private static List<Pending> take(Iterator<Pending> waiting) {
		List<Pending> batch = new ArrayList<>();
		int rows = 0;
		while (waiting.hasNext()) {
			Pending page = waiting.next();
			if (!batch.isEmpty() && rows + page.rows() > MAX_ROWS) {
				break;
			}
			waiting.remove();
			batch.add(page);
			rows += page.rows();
		}
		return batch;
	}

	/**
	 * Reads {@code batch}: a page alone by its list's statement, several by the statement
	 * of pages together. Completes once every page of the batch has its rows.
	 */
	private Mono<Void> read(List<Pending> batch) {
		if (batch.size() == 1) {
			Pending page = batch.get(0);
			return this.reads.page(this.alone.apply(page.query), page.query, page.limit).doOnNext(page::outcome).then();
		}
		Together pages = new Together(batch);
		return this.reads.rows(this.together, pages::value, pages::add).doOnSuccess((done) -> pages.finish());
	}

	/**
	 * A page waiting for its statement, with its request's answer. A page whose request
	 * is cancelled while it waits (its client gone, its deadline passed) is left out of
	 * the statement.
	 */
	private static final class Pending extends SharedStatements.Waiting<StoredPage> {

		private final UserQuery query;

		private final int limit;

		Pending(UserQuery query, int limit, MonoSink<StoredPage> sink) {
			super(sink);
			this.query = query;
			this.limit = limit;
		}

		/** The rows the statement asks for this page: one beyond the limit. */
		int rows() {
			return this.limit + 1;
		}

	}

	/**
	 * The pages of one statement of several: its parameters, an array each with an
	 * element per page, and each page as its row arrives.
	 */
	private static final class Together {

		private final List<Pending> pages;

		private final StoredPage[] read;

		Together(List<Pending> pages) {
			this.pages = pages;
			this.read = new StoredPage[pages.size()];
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
		 * A row of the statement: the page its first column numbers (from 1), then that
		 * page as one value.
		 */
		void add(Readable row) {
			int page = row.get(0, Long.class).intValue() - 1;
			this.read[page] = StoredPage.of(row.get(1, PositionedViews.class), this.pages.get(page).limit);
		}

		/**
		 * Each page as read, for its request to answer. The statement gives every page
		 * its row ({@code unnest ... with ordinality}); a page without one fails
		 * ({@code 500}) rather than answer as a page of no records, which would hide the
		 * user's records.
		 */
		void finish() {
			for (int i = 0; i < this.read.length; i++) {
				Pending page = this.pages.get(i);
				if (this.read[i] != null) {
					page.outcome(this.read[i]);
				}
				else {
					page.failure = new IllegalStateException("The statement of pages read together gave page " + (i + 1)
							+ " of " + this.read.length + " no row");
				}
			}
		}

	}

}
