package com.healthpartner.api.assessment;

import java.time.Clock;
import java.util.UUID;

import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Principals;
import com.healthpartner.api.assessment.AssessmentRequests.NewAssessment;
import com.healthpartner.api.audit.AuditEvent;
import com.healthpartner.api.audit.AuditTrail;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.idempotency.Created;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.json.RecordIds;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.records.RecordLists;

/**
 * {@code /api/v1/health/assessments}: submit an assessment, read one, list or export a
 * user's assessments.
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
			FieldErrors errors = new FieldErrors();
			String key = IdempotentCreates.key(request, errors);
			NewAssessment submitted = AssessmentRequests.read(body, errors);
			errors.throwIfAny();
			AssessmentRow row = new AssessmentRow(Ids.random(), submitted.userId(),
					this.mapper.writeValueAsString(submitted.responses()), Timestamps.truncate(this.clock.instant()));
			// written with the record, by its statement (a replay writes neither)
			AuditEvent event = this.audit.writeEvent(request, RESOURCE, submitted.userId());
			return this.creates.create(partnerId, PATH, key, body, () -> this.assessments.insert(partnerId, row, event)
				.map((stored) -> new Created(PATH + "/" + stored.id(), AssessmentView.of(stored))));
		});
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
