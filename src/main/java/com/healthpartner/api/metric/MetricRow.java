package com.healthpartner.api.metric;

import java.time.Instant;
import java.util.UUID;

import com.healthpartner.api.records.RecordStore;

/**
 * A stored metrics record; {@code metrics} is the stored {@code jsonb} as JSON text. The
 * client record id and version are null for a record posted without them.
 */
record MetricRow(UUID id, String userId, String clientRecordId, Long clientRecordVersion, String metrics,
		Instant recordedAt, Instant createdAt, Instant updatedAt) implements RecordStore.Stored {

	@Override
	public String content() {
		return this.metrics;
	}

}
