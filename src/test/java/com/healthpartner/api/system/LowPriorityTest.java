package com.healthpartner.api.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

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
				nice.complete(niceOf(Files.readSymbolicLink(Path.of("/proc/thread-self"))));
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
		int mine = niceOf(Files.readSymbolicLink(Path.of("/proc/thread-self")));
		CompletableFuture<int[]> nices = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				int before = niceOf(Files.readSymbolicLink(Path.of("/proc/thread-self")));
				boolean lowered = LowPriority.lowerCurrentThread(10);
				int after = niceOf(Files.readSymbolicLink(Path.of("/proc/thread-self")));
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
		assertThat(niceOf(Files.readSymbolicLink(Path.of("/proc/thread-self")))).isEqualTo(mine);
	}

	/**
	 * The nice value of a thread from its {@code stat} ({@code thread}: the link
	 * {@code /proc/thread-self} resolves to, relative to {@code /proc}); the 19th field,
	 * counted after the command name, which may hold spaces.
	 */
	static int niceOf(Path thread) throws IOException {
		String stat = Files.readString(Path.of("/proc").resolve(thread).resolve("stat"));
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return Integer.parseInt(fields[19 - 3]);
	}

}
