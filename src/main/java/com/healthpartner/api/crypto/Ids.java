package com.healthpartner.api.crypto;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random (version 4) UUIDs without the one lock of {@code UUID.randomUUID()}, which every
 * request of every event loop would otherwise take. Ids a partner sees (records,
 * partners, keys) come from a secure generator of the calling thread; ids only the
 * service keeps (request ids, audit events) from the thread's fast one, where being
 * unique is all that counts; audit events' ids also sort by time ({@link #ordered}).
 */
public final class Ids {

	private static final ThreadLocal<SecureRandom> SECURE = ThreadLocal.withInitial(SecureRandom::new);

	private Ids() {
	}

	/** An id unguessable by others, for what partners see. */
	public static UUID random() {
		byte[] bytes = new byte[16];
		SECURE.get().nextBytes(bytes);
		long most = 0;
		long least = 0;
		for (int i = 0; i < 8; i++) {
			most = (most << 8) | (bytes[i] & 0xff);
			least = (least << 8) | (bytes[i + 8] & 0xff);
		}
		return version4(most, least);
	}

	/** A unique id, for what only the service keeps. */
	public static UUID unique() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return version4(random.nextLong(), random.nextLong());
	}

	/**
	 * A unique id that sorts after the ids of earlier milliseconds (version 7: the epoch
	 * milliseconds {@code at}, then 74 random bits), for rows only the service keeps and
	 * writes in time order (audit events): each new one goes to the end of the primary
	 * key's index instead of a random page of it, which the database would otherwise
	 * read, change and, once after every checkpoint, copy whole into its write-ahead log.
	 */
	public static UUID ordered(long at) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return version7(at, random.nextLong(), random.nextLong());
	}

	private static UUID version7(long at, long randomA, long randomB) {
		return new UUID((at << 16) | 0x7000L | (randomA & 0xFFFL),
				(randomB & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L);
	}

	private static UUID version4(long most, long least) {
		return new UUID((most & ~0xF000L) | 0x4000L, (least & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L);
	}

}
