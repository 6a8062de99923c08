package com.healthpartner.api.support;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waiting for something the service does asynchronously (a notification between
 * instances, a batch of audit events, a reconnect): tries again every
 * {@value #PAUSE_MILLIS} ms until the result is as expected or the time is up, and
 * returns the last result so that the caller's assertion shows what was seen.
 */
public final class Eventually {

	static final long PAUSE_MILLIS = 20;

	private Eventually() {
	}

	/** The first result of {@code attempt} that {@code done} accepts, or the last one. */
	public static <T> T eventually(Duration limit, Supplier<T> attempt, Predicate<T> done) {
		Instant deadline = Instant.now().plus(limit);
		T result = attempt.get();
		while (!done.test(result) && Instant.now().isBefore(deadline)) {
			pause();
			result = attempt.get();
		}
		return result;
	}

	/** Whether {@code condition} became true within {@code limit}. */
	public static boolean eventually(Duration limit, Supplier<Boolean> condition) {
		return eventually(limit, condition, Boolean::booleanValue);
	}

	/**
	 * Whether {@code condition} held at every look during {@code span}: for what must not
	 * happen (a request that must keep waiting), looked at all along rather than once
	 * after a pause.
	 */
	public static boolean throughout(Duration span, Supplier<Boolean> condition) {
		Instant end = Instant.now().plus(span);
		while (Instant.now().isBefore(end)) {
			if (!condition.get()) {
				return false;
			}
			pause();
		}
		return condition.get();
	}

	private static void pause() {
		try {
			Thread.sleep(PAUSE_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting", ex);
		}
	}

}
