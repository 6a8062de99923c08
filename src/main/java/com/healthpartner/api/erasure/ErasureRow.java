package com.healthpartner.api.erasure;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * An erasure of a user's records: its cut-off is the first transaction id that had not
 * started when it was requested; records of transactions below it are erased.
 * {@code deleted} counts the records deleted so far, one count for each kind of record.
 */
record ErasureRow(UUID id, UUID partnerId, String userId, String status, long cutoff, Instant requestedAt,
		Instant completedAt, List<Deleted> deleted) {

	/** How many records of one kind were deleted: {@code <resource>_deleted}. */
	record Deleted(String counter, long count) {
	}

}
