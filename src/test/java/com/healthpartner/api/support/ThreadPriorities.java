package com.healthpartner.api.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Threads' CPU priorities as the kernel holds them (Linux's {@code /proc}). */
public final class ThreadPriorities {

	/** The calling thread's directory in {@code /proc}. */
	public static final Path SELF = Path.of("/proc/thread-self");

	private ThreadPriorities() {
	}

	/**
	 * The nice value of the thread whose directory in {@code /proc} is {@code thread}
	 * ({@link #SELF}, or one of {@code /proc/self/task}): the 19th field of its
	 * {@code stat}, counted after the name, which may hold spaces.
	 */
	public static int niceOf(Path thread) throws IOException {
		String stat = Files.readString(thread.resolve("stat"));
		return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19 - 3]);
	}

}
