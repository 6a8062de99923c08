package com.healthpartner.api.changes;

import java.time.Instant;
import java.util.UUID;

/**
 * One stored change: its place in the feed ({@code txid}, {@code seq}), what changed, and
 * for {@code created} and {@code updated} the record as it was then ({@code data} is the
 * stored metrics or responses as JSON text).
 */
public record ChangeRow(long txid, long seq, String kind, String resource, UUID recordId, String userId,
		String clientRecordId, Long clientRecordVersion, String data, Instant recordedAt, Instant createdAt,
		Instant updatedAt, Instant changedAt) {
}
