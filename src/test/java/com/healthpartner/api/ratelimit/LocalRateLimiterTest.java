package com.healthpartner.api.ratelimit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import com.healthpartner.api.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-memory limiter with a clock the test moves: fixed windows that start with the
 * first request after the previous one ended, refusals that do not count, plan changes
 * that keep the used requests, and memory that stays bounded.
 */
class LocalRateLimiterTest {

	private static final Policy DEFAULT = new Policy("default", 60, Duration.ofMinutes(1));

	private static final Policy ENTERPRISE = new Policy("enterprise", 300, Duration.ofMinutes(1));

	private final MutableClock clock = new MutableClock();

	private final LocalRateLimiter limiter = new LocalRateLimiter(this.clock);

	@Test
	void aWindowAllowsTheLimitAndRefusesTheRestWithoutCountingThem() {
		Instant start = this.clock.instant();
		for (int i = 1; i <= 60; i++) {
			Decision decision = this.limiter.acquireNow(DEFAULT, "partner:a");
			assertThat(decision.allowed()).isTrue();
			assertThat(decision.remaining()).isEqualTo(60 - i);
		}
		this.limiter.acquire(DEFAULT, "partner:a").as(StepVerifier::create).assertNext((refused) -> {
			assertThat(refused.allowed()).isFalse();
			assertThat(refused.remaining()).isZero();
			assertThat(refused.resetAtMillis()).isBetween(start.plusSeconds(60).toEpochMilli(),
					this.clock.instant().plusSeconds(60).toEpochMilli());
		}).verifyComplete();
		assertThat(this.limiter.acquireNow(DEFAULT, "partner:b").remaining()).as("another subject").isEqualTo(59);
	}

	@Test
	void aUsedUpWindowRefusesAtOnceAsATakeWouldAndAnyOtherIsLeftToTheTake() {
		assertThat(this.limiter.refusedNow(DEFAULT, "partner:a")).as("no window yet").isNull();
		for (int i = 1; i <= 59; i++) {
			this.limiter.acquireNow(DEFAULT, "partner:a");
		}
		assertThat(this.limiter.refusedNow(DEFAULT, "partner:a")).as("one left").isNull();
		Decision last = this.limiter.acquireNow(DEFAULT, "partner:a");
		assertThat(last.allowed()).as("the one left was not taken by the look").isTrue();
		assertThat(last.remaining()).isZero();
		this.clock.advance(Duration.ofSeconds(7));
		long before = this.clock.millis();
		Decision refused = this.limiter.refusedNow(DEFAULT, "partner:a");
		Decision taken = this.limiter.acquireNow(DEFAULT, "partner:a");
		assertThat(refused).usingRecursiveComparison().ignoringFields("decidedAtMillis").isEqualTo(taken);
		assertThat(refused.allowed()).isFalse();
		assertThat(refused.remaining()).isZero();
		assertThat(refused.resetAtMillis()).isEqualTo(last.resetAtMillis());
		assertThat(refused.decidedAtMillis()).isBetween(before, taken.decidedAtMillis());
		assertThat(this.limiter.refusedNow(ENTERPRISE, "partner:a")).as("another plan: the take decides").isNull();
		this.clock.advance(Duration.ofSeconds(54));
		assertThat(this.limiter.refusedNow(DEFAULT, "partner:a")).as("the window has ended").isNull();
		assertThat(this.limiter.acquireNow(DEFAULT, "partner:a").remaining()).isEqualTo(59);
	}

	@Test
	void twoThreadsTakingPermitsOfOneSubjectAtOnceGetExactlyTheLimit() throws Exception {
		Policy policy = new Policy("loadtest", 100_000, Duration.ofMinutes(1));
		ExecutorService loops = Executors.newFixedThreadPool(2);
		try {
			CountDownLatch ready = new CountDownLatch(2);
			Callable<Integer> taker = () -> {
				ready.countDown();
				ready.await();
				int allowed = 0;
				for (int i = 0; i < 60_000; i++) {
					allowed += this.limiter.acquireNow(policy, "partner:a").allowed() ? 1 : 0;
				}
				return allowed;
			};
			List<Future<Integer>> takers = loops.invokeAll(List.of(taker, taker));
			assertThat(takers.get(0).get() + takers.get(1).get()).isEqualTo(100_000);
			assertThat(this.limiter.refusedNow(policy, "partner:a").remaining()).isZero();
		}
		finally {
			loops.shutdownNow();
		}
	}

	@Test
	void aNewWindowStartsWithTheFirstRequestAfterThePreviousEnded() {
		Decision first = this.limiter.acquireNow(DEFAULT, "partner:a");
		this.clock.advance(Duration.ofSeconds(59));
		for (int i = 0; i < 59; i++) {
			this.limiter.acquireNow(DEFAULT, "partner:a");
		}
		assertThat(this.limiter.acquireNow(DEFAULT, "partner:a").allowed()).isFalse();
		// 150 s after the first request: not aligned to 120 s, a window of its own
		this.clock.advance(Duration.ofSeconds(91));
		Decision later = this.limiter.acquireNow(DEFAULT, "partner:a");
		assertThat(later.allowed()).isTrue();
		assertThat(later.remaining()).isEqualTo(59);
		assertThat(later.resetAtMillis()).isEqualTo(later.decidedAtMillis() + 60_000);
		assertThat(later.resetAtMillis() - first.resetAtMillis()).isGreaterThanOrEqualTo(150_000);
	}

	@Test
	void aPlanChangeKeepsTheWindowAndTheRequestsUsedInIt() {
		for (int i = 0; i < 10; i++) {
			this.limiter.acquireNow(DEFAULT, "partner:a");
		}
		Decision upgraded = this.limiter.acquireNow(ENTERPRISE, "partner:a");
		assertThat(upgraded.remaining()).isEqualTo(300 - 11);
		for (int i = 0; i < 60; i++) {
			this.limiter.acquireNow(ENTERPRISE, "partner:a");
		}
		Decision downgraded = this.limiter.acquireNow(DEFAULT, "partner:a");
		assertThat(downgraded.allowed()).as("71 used, the new limit is 60").isFalse();
		assertThat(downgraded.resetAtMillis()).isEqualTo(upgraded.resetAtMillis());
		this.clock.advance(Duration.ofSeconds(61));
		assertThat(this.limiter.acquireNow(DEFAULT, "partner:a").remaining()).isEqualTo(59);
	}

	@Test
	void aRequestReadBeforeTheWindowItRacedWithCountsInThatWindow() {
		Decision first = this.limiter.acquireNow(DEFAULT, "partner:a");
		for (int i = 0; i < 59; i++) {
			this.limiter.acquireNow(DEFAULT, "partner:a");
		}
		// another event loop read the clock a moment before the first request and takes
		// its permit only now
		this.clock.advance(Duration.ofMillis(-1));
		Decision raced = this.limiter.acquireNow(DEFAULT, "partner:a");
		assertThat(raced.allowed()).as("the 61st request of the window").isFalse();
		assertThat(raced.remaining()).isZero();
		assertThat(raced.resetAtMillis()).isEqualTo(first.resetAtMillis());
	}

	@Test
	void aClockSetBackNeitherBlocksNorRefuses() {
		this.clock.advance(Duration.ofHours(2));
		for (int i = 0; i < 30; i++) {
			this.limiter.acquireNow(DEFAULT, "partner:a");
		}
		this.clock.advance(Duration.ofHours(-2));
		Decision afterwards = this.limiter.acquireNow(DEFAULT, "partner:a");
		assertThat(afterwards.allowed()).isTrue();
		assertThat(afterwards.remaining()).as("a new window: the old one has not started yet").isEqualTo(59);
		assertThat(afterwards.resetAtMillis()).isEqualTo(afterwards.decidedAtMillis() + 60_000);
		for (int i = 0; i < 59; i++) {
			assertThat(this.limiter.acquireNow(DEFAULT, "partner:a").allowed()).isTrue();
		}
		assertThat(this.limiter.acquireNow(DEFAULT, "partner:a").allowed()).isFalse();
	}

	@Test
	void aHundredThousandPartnersLimitersAreDroppedWhenTheirWindowsEnd() {
		for (int i = 0; i < 100_000; i++) {
			this.limiter.acquireNow(DEFAULT, "partner:" + i);
		}
		assertThat(this.limiter.windows()).isEqualTo(100_000);
		this.clock.advance(Duration.ofSeconds(30));
		this.limiter.acquireNow(DEFAULT, "partner:late");
		this.clock.advance(Duration.ofSeconds(31));
		assertThat(this.limiter.windows()).as("only the partner whose window is still open").isEqualTo(1);
	}

	@Test
	void theNumberOfLimitersIsBoundedEvenWithinOneWindow() {
		LocalRateLimiter small = new LocalRateLimiter(this.clock, 1_000);
		for (int i = 0; i < 20_000; i++) {
			small.acquireNow(DEFAULT, "anonymous:10.0." + (i / 256) + "." + (i % 256));
		}
		assertThat(small.windows()).isLessThanOrEqualTo(1_000);
	}

}
