package com.healthpartner.api.records;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

import org.springframework.dao.DataAccessResourceFailureException;

import com.healthpartner.api.problem.DatabaseFailures;
import com.healthpartner.api.web.LoopTimer;

/**
 * Requests of one kind that share statements: the writes of records
 * ({@link WriteBatches}) and the pages of lists ({@link PageBatches}). Each event loop
 * has a lane: one statement under way at a time, the requests that come meanwhile waiting
 * for the next, which takes them all; a statement stalled for {@link #STALL} lets a
 * second start. At most {@code maxWaiting} requests wait ({@code 503} beyond), a
 * statement fails its requests after {@code deadline}, a statement of several that fails
 * for its rows runs each again alone. How and why: docs/architecture.md, Writes and pages
 * together.
 *
 * @param <W> a request waiting for its statement
 */
final class SharedStatements<W extends SharedStatements.Waiting<?>> {

	/**
	 * How long a lane's statement runs before a second may start beside it.
	 */
	static final Duration STALL = Duration.ofMillis(20);

	/** The most statements of one lane under way at once: one, and one beside a stall. */
	private static final int MOST_UNDER_WAY = 2;

	private final String what;

	private final Function<Iterator<W>, List<W>> take;

	private final Function<List<W>, Mono<Void>> run;

	private final int maxWaiting;

	private final Duration deadline;

	private final long stallNanos;

	/**
	 * How long the oldest waiting request may have waited before the newest go first:
	 * under a load the database cannot keep up with, oldest first would serve every
	 * request late, each after its client's deadline (wasted work, and no {@code 200} at
	 * all); newest first serves most in time and lets the oldest reach their deadline
	 * unserved ({@code 503} with {@code Retry-After}). The whole statement deadline, not
	 * less: a request that has waited that long is still answered before its request
	 * deadline when served now, and switching earlier starves requests that would have
	 * been served in time (10,000 closed-loop connections wait about a second each).
	 */
	private final long lateNanos;

	private final Map<EventExecutor, Lane> lanes = new ConcurrentHashMap<>();

	private final Lane otherThreads = new Lane();

	/**
	 * Every set of lanes made, for the readiness check: the writes and pages of each kind
	 * of record, made once per repository.
	 */
	private static final Set<SharedStatements<?>> ALL = Collections
		.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

	/**
	 * Statements shared by requests of {@code what} (named when one is refused):
	 * {@code take} removes from the waiting requests (in the order they came, the
	 * cancelled ones already left out) those that go in the next statement, at least the
	 * first; {@code run} runs a statement of a batch and gives each request its outcome
	 * ({@link Waiting#outcome}), completing once all have one, or fails.
	 */
	SharedStatements(String what, Function<Iterator<W>, List<W>> take, Function<List<W>, Mono<Void>> run,
			int maxWaiting, Duration deadline, Duration stall) {
		this(what, take, run, maxWaiting, deadline, stall, false);
	}

	/**
	 * As above; {@code newestFirstWhenLate}: while the request that has waited longest
	 * has waited {@code deadline}, the next statement takes the newest requests first
	 * (for requests whose order does not matter, such as reads).
	 */
	SharedStatements(String what, Function<Iterator<W>, List<W>> take, Function<List<W>, Mono<Void>> run,
			int maxWaiting, Duration deadline, Duration stall, boolean newestFirstWhenLate) {
		this.lateNanos = newestFirstWhenLate ? deadline.toNanos() : Long.MAX_VALUE;
		this.what = what;
		this.take = take;
		this.run = run;
		this.maxWaiting = maxWaiting;
		this.deadline = deadline;
		this.stallNanos = stall.toNanos();
		ALL.add(this);
	}

	/**
	 * What the lanes of every set hold up: a statement still under way a second past
	 * twice its deadline (its own, then that of its requests run again alone), named by
	 * the requests it serves. Empty while every lane works.
	 */
	static List<String> stuck() {
		List<SharedStatements<?>> all;
		synchronized (ALL) {
			all = new ArrayList<>(ALL);
		}
		List<String> stuck = new ArrayList<>();
		long now = System.nanoTime();
		for (SharedStatements<?> statements : all) {
			if (statements.stuck(now)) {
				stuck.add(statements.what);
			}
		}
		return stuck;
	}

	private boolean stuck(long now) {
		long late = this.deadline.multipliedBy(2).plusSeconds(1).toNanos();
		if (this.otherThreads.oldestStart(now) > late) {
			return true;
		}
		for (Lane lane : this.lanes.values()) {
			if (lane.oldestStart(now) > late) {
				return true;
			}
		}
		return false;
	}

	/** Adds a request to the lane of the current event loop (or of other threads). */
	void add(W waiting) {
		EventExecutor current = ThreadExecutorMap.currentExecutor();
		Lane lane = (current != null) ? this.lanes.get(current) : this.otherThreads;
		if (lane == null) {
			lane = this.lanes.computeIfAbsent(current, (key) -> new Lane());
		}
		lane.add(waiting);
	}

	/**
	 * A request waiting for its statement, with its answer: the outcome the statement
	 * gave it, or its failure.
	 *
	 * @param <T> the outcome
	 */
	abstract static class Waiting<T> {

		final MonoSink<T> sink;

		/** When it came ({@link System#nanoTime()}). */
		final long since = System.nanoTime();

		volatile boolean cancelled;

		private T outcome;

		Throwable failure;

		/**
		 * A request answered through {@code sink}; null for one that runs alone, outside
		 * any lane.
		 */
		Waiting(MonoSink<T> sink) {
			this.sink = sink;
			if (sink != null) {
				sink.onCancel(() -> this.cancelled = true);
			}
		}

		/** Gives this request its outcome (null: empty) once its statement has run. */
		void outcome(T outcome) {
			this.outcome = outcome;
		}

		void answer() {
			if (this.failure != null) {
				this.sink.error(this.failure);
			}
			else {
				this.sink.success(this.outcome);
			}
		}

	}

	/** A statement under way: its requests, and when it started. */
	private record UnderWay<W>(List<W> batch, long startedAt) {
	}

	/**
	 * The requests of one event loop (or of all other threads): those waiting, and the
	 * statements under way. Statements end on the loop that started them, but a request's
	 * cancellation or a timer may come from another thread, hence the lock.
	 */
	private final class Lane {

		private final ArrayDeque<W> waiting = new ArrayDeque<>();

		private final List<UnderWay<W>> underWay = new ArrayList<>(MOST_UNDER_WAY);

		/** How long the oldest statement under way has run, 0 when none is. */
		synchronized long oldestStart(long now) {
			long oldest = 0;
			for (UnderWay<W> statement : this.underWay) {
				oldest = Math.max(oldest, now - statement.startedAt());
			}
			return oldest;
		}

		void add(W request) {
			UnderWay<W> statement;
			synchronized (this) {
				if (this.waiting.size() >= SharedStatements.this.maxWaiting) {
					this.waiting.removeIf((waiting) -> waiting.cancelled);
					if (this.waiting.size() >= SharedStatements.this.maxWaiting) {
						request.sink.error(new DataAccessResourceFailureException(
								"Too many " + SharedStatements.this.what + " are waiting for the database"));
						return;
					}
				}
				this.waiting.add(request);
				statement = next();
			}
			if (statement != null) {
				start(statement);
			}
		}

		/**
		 * The next statement, counted as under way, when one may start now (none is under
		 * way, or the one under way has stalled) and requests wait; else null.
		 */
		private UnderWay<W> next() {
			int running = this.underWay.size();
			long now = System.nanoTime();
			if (running >= MOST_UNDER_WAY
					|| (running == 1 && now - this.underWay.get(0).startedAt() < SharedStatements.this.stallNanos)) {
				return null;
			}
			this.waiting.removeIf((waiting) -> waiting.cancelled);
			if (this.waiting.isEmpty()) {
				return null;
			}
			Iterator<W> order = (now - this.waiting.peekFirst().since > SharedStatements.this.lateNanos)
					? this.waiting.descendingIterator() : this.waiting.iterator();
			UnderWay<W> statement = new UnderWay<>(SharedStatements.this.take.apply(order), now);
			this.underWay.add(statement);
			return statement;
		}

		private void start(UnderWay<W> statement) {
			// should it stall, the requests waiting by then may go in a second statement
			LoopTimer.after(Duration.ofNanos(SharedStatements.this.stallNanos)).subscribe((fired) -> stalled());
			List<W> batch = statement.batch();
			run(batch).subscribe(null, (failure) -> {
				if (batch.size() > 1 && !DatabaseFailures.isUnavailable(failure)) {
					Flux.fromIterable(batch).flatMap((request) -> run(List.of(request)).onErrorResume((alone) -> {
						request.failure = alone;
						return Mono.empty();
					})).subscribe(null, null, () -> ended(statement));
					return;
				}
				for (W request : batch) {
					request.failure = failure;
				}
				ended(statement);
			}, () -> ended(statement));
		}

		private Mono<Void> run(List<W> batch) {
			return Mono.defer(() -> SharedStatements.this.run.apply(batch))
				.timeout(LoopTimer.after(SharedStatements.this.deadline));
		}

		private void stalled() {
			UnderWay<W> statement;
			synchronized (this) {
				statement = next();
			}
			if (statement != null) {
				start(statement);
			}
		}

		/**
		 * A statement ended: the next one starts first, so that the database works on it
		 * while this loop answers the requests of the one that ended.
		 */
		private void ended(UnderWay<W> ended) {
			UnderWay<W> next;
			synchronized (this) {
				this.underWay.removeIf((statement) -> statement == ended);
				next = next();
			}
			if (next != null) {
				start(next);
			}
			for (W request : ended.batch()) {
				request.answer();
			}
		}

	}

}
