package com.healthpartner.api.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import reactor.core.publisher.Mono;

/**
 * Limits in this instance's memory: one Resilience4j {@link AtomicRateLimiter} per
 * subject, with timeout 0 so that no request waits for a permit, created on its first
 * request. The limiter parks its caller for a nanosecond when its compare-and-set loses
 * to another thread's, which Linux stretches to a timer tick (about 95 µs on the
 * benchmark VM), so that an event loop taking a permit of the subject the other loop
 * takes at the same instant would stall all its connections that long: a window's permits
 * are taken under its monitor, held for the limiter's few hundred nanoseconds, so the
 * compare-and-set never loses (a contended monitor spins first). A refusal in a window
 * already used up takes nothing and reads only.
 * <p>
 * A window (docs/api.md, Rate limits) starts with the first request after the previous
 * window ended, whereas Resilience4j's cycles are aligned to the limiter's creation; so
 * each window gets its own limiter, replaced when the window is over. A limiter reads
 * time from the injected {@link Clock} (Resilience4j's {@code nanoTimeSupplier}), so
 * tests move windows without sleeping. An entry expires when its window ends and the
 * number of entries is bounded, so memory stays flat with any number of partners and
 * addresses.
 */
final class LocalRateLimiter implements RateLimiter {

	/** Far above 100,000 partners plus the addresses of a busy minute. */
	static final long MAXIMUM_WINDOWS = 250_000;

	private final Clock clock;

	private final Cache<String, Window> windows;

	private final Map<Shape, RateLimiterConfig> configs = new ConcurrentHashMap<>();

	private final AtomicLong ticks = new AtomicLong(Long.MIN_VALUE);

	LocalRateLimiter(Clock clock) {
		this(clock, MAXIMUM_WINDOWS);
	}

	LocalRateLimiter(Clock clock, long maximumWindows) {
		this.clock = clock;
		this.windows = Caffeine.newBuilder()
			.ticker(this::monotonicNanos)
			.expireAfter(new UntilWindowEnds())
			.maximumSize(maximumWindows)
			.executor(Runnable::run)
			.build();
	}

	@Override
	public Mono<Decision> acquire(Policy policy, String subject) {
		return Mono.fromSupplier(() -> acquireNow(policy, subject));
	}

	@Override
	public Decision acquireNow(Policy policy, String subject) {
		long now = nanos();
		// the common case, a request that counts in its subject's current window under
		// the same plan: a read of the map, no lock; the limiter counts atomically. A
		// request that races with the window's replacement (it ended, or the plan
		// changed) counts in the window it found
		Window found = current(policy, subject, now);
		if (found != null) {
			return found.take(policy, now);
		}
		Decision[] decision = new Decision[1];
		// compute is atomic per subject: replacing an ended window and taking a permit
		// cannot interleave with another request of the same subject
		this.windows.asMap().compute(subject, (key, current) -> {
			Window window = (current == null || !current.counts(now))
					? new Window(key, policy, now, now + nanos(policy)) : current.limitedTo(key, policy);
			decision[0] = window.take(policy, now);
			return window;
		});
		return decision[0];
	}

	@Override
	public Decision refusedNow(Policy policy, String subject) {
		long now = nanos();
		Window found = current(policy, subject, now);
		// a window's permits only ever decrease: once used up it refuses until replaced,
		// and taking a permit would change nothing
		return (found != null) ? found.refusal(policy, now) : null;
	}

	/**
	 * The subject's window a request read at {@code now} counts in under the same plan,
	 * or null (none, ended, or another plan: {@code compute} decides).
	 */
	private Window current(Policy policy, String subject, long now) {
		Window found = this.windows.asMap().get(subject);
		return (found != null && found.counts(now) && found.limit == policy.limit()) ? found : null;
	}

	/** Windows held now (after expired ones are dropped). */
	long windows() {
		this.windows.cleanUp();
		return this.windows.estimatedSize();
	}

	private long nanos() {
		Instant now = this.clock.instant();
		return now.getEpochSecond() * 1_000_000_000L + now.getNano();
	}

	/** Caffeine needs a ticker that never goes back, even if the clock is set back. */
	private long monotonicNanos() {
		return this.ticks.accumulateAndGet(nanos(), Math::max);
	}

	private static long nanos(Policy policy) {
		return policy.window().toNanos();
	}

	private RateLimiterConfig config(int limit, Duration period) {
		return this.configs.computeIfAbsent(new Shape(limit, period),
				(shape) -> RateLimiterConfig.custom()
					.limitForPeriod(limit)
					.limitRefreshPeriod(period)
					.timeoutDuration(Duration.ZERO)
					.build());
	}

	private record Shape(int limit, Duration period) {
	}

	/** One window of one subject: its bounds and the limiter counting it. */
	private final class Window {

		private final long start;

		private final long end;

		private final int limit;

		private final AtomicLong latest;

		private final AtomicRateLimiter limiter;

		private Window(String subject, Policy policy, long start, long end) {
			this.start = start;
			this.end = end;
			this.limit = policy.limit();
			this.latest = new AtomicLong(start);
			// the limiter's first cycle starts now and lasts the whole policy window, so
			// it never refreshes before this window is replaced; its time is the latest
			// request's (one clock reading a request), and never goes back (Resilience4j
			// would wait for a negative delay or count negative cycles)
			this.limiter = new AtomicRateLimiter(subject, config(policy.limit(), policy.window()), this.latest::get);
		}

		/**
		 * Whether a request read at {@code now} counts in this window: it falls in it, or
		 * it was read a little before the window started. Two event loops read the clock
		 * and then take their permits; the one that read it later can start the window
		 * first, and the other's reading is then before its start. Starting another
		 * window for it would give the subject a second set of permits (seen in a
		 * benchmark: 61 requests let through in a window of 60). A time more than a
		 * window before the start is a clock set back, which starts a new window.
		 */
		private boolean counts(long now) {
			return now < this.end && now >= this.start - (this.end - this.start);
		}

		/**
		 * The same window under the subject's current limit: after a plan change the used
		 * requests carry over, so remaining = new limit - used.
		 */
		private Window limitedTo(String subject, Policy policy) {
			if (policy.limit() == this.limit) {
				return this;
			}
			int used = this.limit - this.limiter.getMetrics().getAvailablePermissions();
			Window changed = new Window(subject, policy, this.start, this.end);
			if (used >= policy.limit()) {
				changed.limiter.drainPermissions();
			}
			else if (used > 0) {
				changed.limiter.acquirePermission(used);
			}
			return changed;
		}

		/**
		 * The refusal of a request read at {@code now} when this window is used up, as
		 * {@link #take} would decide it, with nothing taken; null otherwise. The
		 * limiter's cycle is the whole window, so its permits come back only with the
		 * next window, and a refused permit changes none of its state.
		 */
		private Decision refusal(Policy policy, long now) {
			int available = this.limiter.getMetrics().getAvailablePermissions();
			return (available <= 0) ? decision(policy, false, available, now) : null;
		}

		private Decision take(Policy policy, long now) {
			boolean allowed;
			int available;
			synchronized (this) {
				this.latest.accumulateAndGet(now, Math::max);
				allowed = this.limiter.acquirePermission();
				available = this.limiter.getMetrics().getAvailablePermissions();
			}
			return decision(policy, allowed, available, now);
		}

		private Decision decision(Policy policy, boolean allowed, int available, long now) {
			return new Decision(policy, allowed, available, this.end / 1_000_000, now / 1_000_000);
		}

	}

	/**
	 * An entry lives until its window ends: afterwards it is of no use. Measured on the
	 * clock, as the windows are, and counted from Caffeine's (monotonic) current time.
	 */
	private final class UntilWindowEnds implements Expiry<String, Window> {

		@Override
		public long expireAfterCreate(String key, Window window, long currentTime) {
			return Math.max(1, window.end - nanos());
		}

		@Override
		public long expireAfterUpdate(String key, Window window, long currentTime, long currentDuration) {
			return Math.max(1, window.end - nanos());
		}

		@Override
		public long expireAfterRead(String key, Window window, long currentTime, long currentDuration) {
			return currentDuration;
		}

	}

}
