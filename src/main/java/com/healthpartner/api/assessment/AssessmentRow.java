package com.healthpartner.api.assessment;

import java.time.Instant;
import java.util.UUID;

import com.healthpartner.api.records.RecordStore;

/**
 * A stored assessment; {@code responses} is the stored {@code jsonb} as JSON text. The
 * client record id and version are null for an assessment posted without them.
 */
record AssessmentRow(UUID id, String userId, String clientRecordId, Long clientRecordVersion, String responses,
		Instant createdAt, Instant updatedAt) implements RecordStore.Stored {

	@Override
	public String content() {
		return this.responses;
	}

}
