package com.healthpartner.api.assessment;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Principals;
import com.healthpartner.api.assessment.AssessmentRequests.NewAssessment;
import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.audit.AuditTrail;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.idempotency.Created;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.idempotency.RecordOutcome;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.json.RecordIds;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.records.ClientRecord;
import com.healthpartner.api.records.RecordLists;
import com.healthpartner.api.records.RecordWrites;

/**
 * {@code /api/v1/health/assessments}: submit (create or update) an assessment, read or
 * delete one, list or export a user's assessments.
 */
@Component
class AssessmentHandler {

	static final String RESOURCE = "assessments";

	static final String PATH = "/api/v1/health/assessments";

	private final JsonBodies bodies;

	private final IdempotentCreates creates;

	private final AssessmentRepository assessments;

	private final RecordLists lists;

	private final AssessmentList list;

	private final Listings listings;

	private final JsonMapper mapper;

	private final Clock clock;

	private final AuditTrail audit;

	AssessmentHandler(JsonBodies bodies, IdempotentCreates creates, AssessmentRepository assessments, RecordLists lists,
			AssessmentList list, Listings listings, JsonMapper mapper, Clock clock, AuditTrail audit) {
		this.bodies = bodies;
		this.creates = creates;
		this.assessments = assessments;
		this.lists = lists;
		this.list = list;
		this.listings = listings;
		this.mapper = mapper;
		this.clock = clock;
		this.audit = audit;
	}

	Mono<ServerResponse> create(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		return this.bodies.readObject(request).flatMap((body) -> {
			Instant now = this.clock.instant();
			FieldErrors errors = new FieldErrors();
			String key = IdempotentCreates.key(request, errors);
			NewAssessment submitted = AssessmentRequests.read(body, errors);
			ClientRecord client = ClientRecord.read(body, errors);
			errors.throwIfAny();
			AssessmentRow row = new AssessmentRow(Ids.random(), submitted.userId(), client.id(), client.version(),
					this.mapper.writeValueAsString(submitted.responses()), Timestamps.truncate(now),
					Timestamps.truncate(now));
			AuditActor actor = AuditActor.of(request, now);
			return this.creates.create(partnerId, PATH, key, body,
					() -> RecordWrites.write(this.assessments, partnerId, row, client, actor)
						.map((stored) -> created(stored.outcome(), stored.row())));
		});
	}

	private static Created created(RecordOutcome outcome, AssessmentRow row) {
		return new Created(outcome, PATH + "/" + row.id(), AssessmentView.of(row));
	}

	Mono<ServerResponse> delete(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		UUID id = RecordIds.parse(request.pathVariable("id"), "assessment");
		return this.assessments.delete(partnerId, id, AuditActor.of(request, this.clock.instant()))
			.filter(Boolean::booleanValue)
			.switchIfEmpty(Mono.error(() -> RecordIds.notFound("assessment", id)))
			.flatMap((deleted) -> ServerResponse.noContent().build());
	}

	Mono<ServerResponse> get(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		UUID id = RecordIds.parse(request.pathVariable("id"), "assessment");
		return this.assessments.find(partnerId, id)
			.switchIfEmpty(Mono.error(() -> RecordIds.notFound("assessment", id)))
			.doOnNext((row) -> this.audit.read(request, RESOURCE, row.userId(), 1))
			.flatMap((row) -> this.listings.one(AssessmentView.of(row)));
	}

	Mono<ServerResponse> list(ServerRequest request) {
		return this.lists.list(request, this.list);
	}

}
