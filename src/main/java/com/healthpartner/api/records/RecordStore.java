package com.healthpartner.api.records;

import java.time.Instant;
import java.util.UUID;

import reactor.core.publisher.Mono;

import com.healthpartner.api.audit.AuditActor;

/**
 * The writes of one kind of health record that {@link RecordWrites} needs: its one upsert
 * statement, the record under a client record id, and the deletion of a record that an
 * erasure hides.
 *
 * @param <R> the stored record
 */
public interface RecordStore<R extends RecordStore.Stored> {

	/**
	 * Inserts the record or, for a client record id stored with a lower version for the
	 * same user (and not hidden by an erasure), updates it; empty when it wrote nothing.
	 */
	Mono<Written<R>> upsert(UUID partnerId, R row, AuditActor actor);

	/** The record stored under a client record id, and whether an erasure hides it. */
	Mono<Existing<R>> byClientId(UUID partnerId, String clientRecordId);

	/** Deletes a record that a pending erasure hides, counted with its deletions. */
	Mono<Void> deleteErased(UUID partnerId, UUID id);

	/** What every stored record has. */
	interface Stored {

		UUID id();

		String userId();

		String clientRecordId();

		Long clientRecordVersion();

		Instant createdAt();

		/** The record's JSON content, as stored. */
		String content();

	}

	/** A written record: inserted, or else updated. */
	record Written<R>(boolean inserted, R row) {
	}

	/** A record found under a client record id; not visible while an erasure hides it. */
	record Existing<R>(R row, boolean visible) {
	}

}
