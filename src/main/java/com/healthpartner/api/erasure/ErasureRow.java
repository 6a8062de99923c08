package com.healthpartner.api.erasure;

import java.time.Instant;
import java.util.UUID;

/**
 * An erasure of a user's records: its cut-off is the first transaction id that had not
 * started when it was requested; records of transactions below it are erased.
 */
record ErasureRow(UUID id, UUID partnerId, String userId, String status, long cutoff, Instant requestedAt,
		Instant completedAt, long metricsDeleted, long assessmentsDeleted) {
}
