package com.healthpartner.api.system;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.healthpartner.api.support.ThreadPriorities;

import static com.healthpartner.api.support.ThreadPriorities.niceOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Background threads run at the lowest CPU priority, as the kernel sees them; other
 * threads keep theirs.
 */
class LowPriorityTest {

	@Test
	void aThreadOfTheFactoryRunsAtTheLowestPriority() throws Exception {
		CompletableFuture<Integer> nice = new CompletableFuture<>();
		Thread thread = LowPriority.threads("low-priority-test", LowPriority.LOWEST).newThread(() -> {
			try {
				nice.complete(niceOf(ThreadPriorities.SELF));
			}
			catch (IOException ex) {
				nice.completeExceptionally(ex);
			}
		});
		assertThat(thread.getName()).isEqualTo("low-priority-test-1");
		assertThat(thread.isDaemon()).isTrue();
		thread.start();
		assertThat(nice.get(10, TimeUnit.SECONDS)).isEqualTo(LowPriority.LOWEST);
	}

	@Test
	void theCallingThreadIsLoweredAndNoOtherIs() throws Exception {
		int mine = niceOf(ThreadPriorities.SELF);
		CompletableFuture<int[]> nices = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				int before = niceOf(ThreadPriorities.SELF);
				boolean lowered = LowPriority.lowerCurrentThread(10);
				int after = niceOf(ThreadPriorities.SELF);
				nices.complete(new int[] { before, lowered ? 1 : 0, after });
			}
			catch (IOException ex) {
				nices.completeExceptionally(ex);
			}
		});
		thread.start();
		int[] seen = nices.get(10, TimeUnit.SECONDS);
		// a new thread starts at the priority of the one that made it
		assertThat(seen[0]).isEqualTo(mine).isLessThan(10);
		assertThat(seen[1]).isOne();
		assertThat(seen[2]).isEqualTo(10);
		// this thread, which lowered nothing, keeps its priority
		assertThat(niceOf(ThreadPriorities.SELF)).isEqualTo(mine);
	}

}
