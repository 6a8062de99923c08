package com.healthpartner.api.records;

import java.util.UUID;

import reactor.core.publisher.Mono;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.idempotency.RecordOutcome;

/**
 * The one flow of storing a posted record, metrics and assessments alike, and telling
 * what happened ({@code Record-Outcome}). When the upsert wrote nothing, the record under
 * the client record id decides: another user's is a conflict, one that an erasure hides
 * is deleted now and the write tried again, any other is unchanged. A record deleted in
 * between is also tried again.
 */
public final class RecordWrites {

	/**
	 * How many times a write that found its client record id in the way is tried again.
	 */
	private static final int RETRIES = 3;

	private RecordWrites() {
	}

	public static <R extends RecordStore.Stored> Mono<Outcome<R>> write(RecordStore<R> store, UUID partnerId, R row,
			ClientRecord client, AuditActor actor) {
		return write(store, partnerId, row, client, actor, RETRIES);
	}

	private static <R extends RecordStore.Stored> Mono<Outcome<R>> write(RecordStore<R> store, UUID partnerId, R row,
			ClientRecord client, AuditActor actor, int attempts) {
		return store.upsert(partnerId, row, actor)
			.map(RecordWrites::outcome)
			.switchIfEmpty(Mono.defer(() -> notWritten(store, partnerId, row, client, actor, attempts)));
	}

	/** The outcome of a write that wrote its record. */
	static <R> Outcome<R> outcome(RecordStore.Written<R> written) {
		return new Outcome<>(written.inserted() ? RecordOutcome.CREATED : RecordOutcome.UPDATED, written.row());
	}

	/**
	 * The rest of the flow after an upsert of {@code row} wrote nothing (also for the
	 * items of a batch, whose upserts run together): the record under the client record
	 * id decides, as above.
	 */
	static <R extends RecordStore.Stored> Mono<Outcome<R>> notWritten(RecordStore<R> store, UUID partnerId, R row,
			ClientRecord client, AuditActor actor) {
		return notWritten(store, partnerId, row, client, actor, RETRIES);
	}

	private static <R extends RecordStore.Stored> Mono<Outcome<R>> notWritten(RecordStore<R> store, UUID partnerId,
			R row, ClientRecord client, AuditActor actor, int attempts) {
		if (client.id() == null || attempts == 0) {
			return Mono.error(() -> new IllegalStateException("A record write stored nothing"));
		}
		return store.byClientId(partnerId, client.id()).flatMap((existing) -> {
			if (!existing.visible()) {
				return store.deleteErased(partnerId, existing.row().id())
					.then(write(store, partnerId, row, client, actor, attempts - 1));
			}
			if (!existing.row().userId().equals(row.userId())) {
				return Mono.<Outcome<R>>error(client.conflict());
			}
			return Mono.just(new Outcome<>(RecordOutcome.UNCHANGED, existing.row()));
		}).switchIfEmpty(Mono.defer(() -> write(store, partnerId, row, client, actor, attempts - 1)));
	}

	/** What a write did, and the record as stored. */
	public record Outcome<R>(RecordOutcome outcome, R row) {
	}

}
