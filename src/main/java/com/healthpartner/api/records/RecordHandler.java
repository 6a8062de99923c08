package com.healthpartner.api.records;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Principals;
import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.audit.AuditTrail;
import com.healthpartner.api.idempotency.Created;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.json.RecordIds;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.problem.FieldErrors;

/**
 * The routes of one kind of record under {@code /api/v1/health/<resource>}: submit
 * (create or update) a record, read or delete one, list or export a user's records.
 */
class RecordHandler {

	private final RecordKind kind;

	/** The kind's list path, made once ({@link RecordKind#path} builds it anew). */
	private final String path;

	private final RecordRepository records;

	private final Parts parts;

	RecordHandler(RecordRepository records, Parts parts) {
		this.kind = records.kind();
		this.path = this.kind.path();
		this.records = records;
		this.parts = parts;
	}

	Mono<ServerResponse> create(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		return this.parts.bodies().readObject(request).flatMap((body) -> {
			Instant now = this.parts.clock().instant();
			FieldErrors errors = new FieldErrors();
			String key = IdempotentCreates.key(request, errors);
			RecordKind.Posted posted = this.kind.post(body, now, errors);
			errors.throwIfAny();
			AuditActor actor = AuditActor.of(request, now);
			return this.parts.creates()
				.create(partnerId, this.path, key, body,
						() -> RecordWrites.write(this.records, partnerId, posted.row(), posted.client(), actor)
							.map((stored) -> new Created(stored.outcome(), this.path + "/" + stored.row().id(),
									new RecordView(this.kind, stored.row()))));
		});
	}

	Mono<ServerResponse> delete(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		UUID id = RecordIds.parse(request.pathVariable("id"), this.kind.noun());
		return this.records.delete(partnerId, id, AuditActor.of(request, this.parts.clock().instant()))
			.filter(Boolean::booleanValue)
			.switchIfEmpty(Mono.error(() -> RecordIds.notFound(this.kind.noun(), id)))
			.flatMap((deleted) -> ServerResponse.noContent().build());
	}

	Mono<ServerResponse> get(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		UUID id = RecordIds.parse(request.pathVariable("id"), this.kind.noun());
		return this.records.find(partnerId, id)
			.switchIfEmpty(Mono.error(() -> RecordIds.notFound(this.kind.noun(), id)))
			.doOnNext((row) -> this.parts.audit().read(request, this.kind.resource(), row.userId(), 1))
			.flatMap((row) -> this.parts.listings().one(new RecordView(this.kind, row)));
	}

	Mono<ServerResponse> list(ServerRequest request) {
		return this.parts.lists().list(request, this.records);
	}

	/** What the handlers of every kind share. */
	record Parts(JsonBodies bodies, IdempotentCreates creates, RecordLists lists, Listings listings, Clock clock,
			AuditTrail audit) {
	}

}
