package com.healthpartner.api.ratelimit;

import java.util.ArrayList;
import java.util.List;

import io.netty.handler.codec.http.FullHttpResponse;

import com.healthpartner.api.problem.PreparedProblem;
import com.healthpartner.api.problem.ProblemWriter;

/**
 * The {@code 429} of a used-up plan answered at the HTTP edge. Everything in it but its
 * request id follows from the policy, the window's end, the whole seconds left (which
 * change once a second) and the path, so it is prepared once
 * ({@link ProblemWriter#prepare}) and kept in a small table, a slot per hash of those: a
 * partner refused thousands of times a second gets it from there, and partners whose
 * refusals fall on one slot make it again in turn, as every refusal did before (a map of
 * its own, bounded, would need evicting; this table of 64 is its own bound).
 */
public final class EdgeRefusals {

	private static final int SLOTS = 64;

	private final ProblemWriter problems;

	/**
	 * Read and written by every event loop without a lock: a slot holds an immutable
	 * entry (its fields final, so safely seen whole), and a slot overwritten by another
	 * loop only means making the entry again.
	 */
	private final Kept[] slots = new Kept[SLOTS];

	public EdgeRefusals(ProblemWriter problems) {
		this.problems = problems;
	}

	/**
	 * The answer to the request {@code requestId} on {@code path} refused by
	 * {@code refused}.
	 */
	public FullHttpResponse answer(Decision refused, String path, String requestId) {
		long reset = refused.resetEpochSeconds();
		long seconds = refused.secondsToReset();
		int slot = (31 * (31 * path.hashCode() + Long.hashCode(reset)) + refused.policy().hashCode()) & (SLOTS - 1);
		Kept kept = this.slots[slot];
		if (kept == null || !kept.answers(refused, reset, seconds, path)) {
			kept = new Kept(refused.policy(), refused.remaining(), reset, seconds, path, prepare(refused, path));
			this.slots[slot] = kept;
		}
		return this.problems.answer(kept.prepared(), requestId);
	}

	private PreparedProblem prepare(Decision refused, String path) {
		List<CharSequence> headers = new ArrayList<>(10);
		RateLimitHeaders.write((name, value) -> {
			headers.add(name);
			headers.add(value);
		}, List.of(refused));
		return this.problems.prepare(path, RateLimits.limited(refused), headers.toArray(CharSequence[]::new));
	}

	private record Kept(Policy policy, int remaining, long reset, long seconds, String path, PreparedProblem prepared) {

		boolean answers(Decision refused, long reset, long seconds, String path) {
			return this.policy == refused.policy() && this.remaining == refused.remaining() && this.reset == reset
					&& this.seconds == seconds && this.path.equals(path);
		}

	}

}
