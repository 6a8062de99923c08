package com.healthpartner.api.support;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;

/**
 * Netty's buffer-leak reports for a stretch of a test. A leak is reported when the
 * garbage collector has found the lost buffer and Netty next tracks one (at the default
 * level one allocation in 128 is tracked), so a buffer lost by an earlier test may be
 * reported at any later moment. {@link #watch()} has those reported first, then tracks
 * every buffer allocated until {@link Watch#end()}, which has the ones lost meanwhile
 * reported before it returns: the log between the two holds the leaks of that stretch and
 * only those.
 */
public final class BufferLeaks {

	private BufferLeaks() {
	}

	public static Watch watch() throws InterruptedException {
		reportCollected();
		ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
		ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
		return new Watch(before);
	}

	private static void reportCollected() throws InterruptedException {
		for (int round = 0; round < 2; round++) {
			System.gc();
			Thread.sleep(100);
			// each tracked allocation first reports the collected buffers that were lost
			for (int i = 0; i < 4096; i++) {
				ByteBufAllocator.DEFAULT.directBuffer(1).release();
			}
		}
	}

	/** Tracking every buffer until {@link #end()}. */
	public static final class Watch {

		private final ResourceLeakDetector.Level before;

		private Watch(ResourceLeakDetector.Level before) {
			this.before = before;
		}

		public void end() throws InterruptedException {
			try {
				reportCollected();
			}
			finally {
				ResourceLeakDetector.setLevel(this.before);
			}
		}

	}

}
