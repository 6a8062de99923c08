package com.healthpartner.api.imports;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The worker's pause before a chunk: none on an idle instance, the busy share's on a
 * saturated one, in proportion in between.
 */
class ImportPausesTest {

	private static final long CHUNK = 100_000_000; // the last chunk took 100 ms

	@Test
	void anIdleInstanceDoesNotPause() {
		assertThat(ImportWorker.pause(CHUNK, 0, 0.05, 2)).isZero();
	}

	@Test
	void aSaturatedInstanceHoldsTheChunksToTheBusyShareTogether() {
		// two chunks at a time, each working 2.5 % of the time: 39 times the last one's
		// time
		assertThat(ImportWorker.pause(CHUNK, 1, 0.05, 2)).isCloseTo(39 * CHUNK, within(1_000L));
		assertThat(ImportWorker.pause(CHUNK, 1, 0.1, 1)).isCloseTo(9 * CHUNK, within(1_000L));
		// the default, a hundredth: each of two chunks 199 times the last one's time
		assertThat(ImportWorker.pause(CHUNK, 1, 0.01, 2)).isCloseTo(199 * CHUNK, within(1_000L));
	}

	@Test
	void aFewRequestsNowAndThenCostALoneImportLittle() {
		// a client polling the import's status: 1 % of the time a request under way
		assertThat(ImportWorker.pause(CHUNK, 0.01, 0.05, 2)).isLessThan(CHUNK / 50);
		// half of the time: about the chunk's own time
		assertThat(ImportWorker.pause(CHUNK, 0.5, 0.05, 2)).isBetween(CHUNK * 9 / 10, CHUNK * 11 / 10);
	}

	@Test
	void aShareOfOneNeverPauses() {
		assertThat(ImportWorker.pause(CHUNK, 1, 1, 2)).isZero();
	}

}
