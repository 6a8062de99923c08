package com.healthpartner.api.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Threads for background work that is to take only the CPU that the partners' requests
 * leave: each lowers its own scheduling priority (a Linux nice value, up to the lowest,
 * {@value #LOWEST}) as it starts. The kernel's scheduler weighs a thread of nice 19
 * against one of normal priority as 15 to 1024 (nice 10: 110 to 1024) where both want a
 * core, and gives it all it wants where none does. Lowering one's own priority needs no
 * privilege. Elsewhere than on Linux (or without a C library JNA can load) the threads
 * keep their priority, and a line at {@code INFO} says so once.
 * <p>
 * Java has no call for this ({@link Thread#setPriority} is ignored by the JVM on Linux
 * unless it is started with {@code -XX:ThreadPriorityPolicy=1}), so
 * {@code setpriority(2)} is called through JNA for the thread's id in the kernel
 * ({@code /proc/thread-self}).
 */
public final class LowPriority {

	private static final Log log = LogFactory.getLog(LowPriority.class);

	/** The highest nice value: the lowest priority. */
	public static final int LOWEST = 19;

	/** {@code which} of {@code setpriority(2)}: one thread, by its id in the kernel. */
	private static final int PRIO_PROCESS = 0;

	private static final AtomicBoolean warned = new AtomicBoolean();

	private LowPriority() {
	}

	/**
	 * Lowers the calling thread's priority to {@code nice} (1 to {@value #LOWEST}; 0
	 * leaves it as it is); whether it could.
	 */
	public static boolean lowerCurrentThread(int nice) {
		if (nice == 0) {
			return false;
		}
		try {
			Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
			int thread = Integer.parseInt(self.getFileName().toString());
			C.LIBRARY.setpriority(PRIO_PROCESS, thread, nice);
			return true;
		}
		catch (IOException | UnsupportedOperationException | NumberFormatException | LastErrorException
				| LinkageError ex) {
			if (!warned.getAndSet(true)) {
				log.info("Background threads keep their CPU priority (" + ex + ")");
			}
			return false;
		}
	}

	/**
	 * A factory of daemon threads named {@code prefix-1}, {@code prefix-2} and so on,
	 * each at {@code nice}.
	 */
	public static ThreadFactory threads(String prefix, int nice) {
		AtomicInteger made = new AtomicInteger();
		return (work) -> {
			Thread thread = new Thread(() -> {
				lowerCurrentThread(nice);
				work.run();
			}, prefix + "-" + made.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/** The C library's call, loaded when first needed. */
	private interface C extends Library {

		C LIBRARY = Native.load("c", C.class);

		int setpriority(int which, int who, int prio) throws LastErrorException;

	}

}
