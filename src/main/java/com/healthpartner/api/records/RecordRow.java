package com.healthpartner.api.records;

import java.time.Instant;
import java.util.UUID;

/**
 * A stored health record of any kind; {@code content} is the stored {@code jsonb} as JSON
 * text, {@code recordedAt} null for a kind that is not dated. The client record id and
 * version are null for a record posted without them.
 */
public record RecordRow(UUID id, String userId, String clientRecordId, Long clientRecordVersion, String content,
		Instant recordedAt, Instant createdAt, Instant updatedAt) implements RecordStore.Stored {

}
