package com.healthpartner.api.assessment;

import java.time.Clock;
import java.util.UUID;

import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Principals;
import com.healthpartner.api.audit.AuditTrail;
import com.healthpartner.api.assessment.AssessmentRequests.NewAssessment;
import com.healthpartner.api.idempotency.Created;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.web.Cursors;
import com.healthpartner.api.web.FieldErrors;
import com.healthpartner.api.web.JsonBodies;
import com.healthpartner.api.web.Listings;
import com.healthpartner.api.web.Paging;
import com.healthpartner.api.web.RecordIds;
import com.healthpartner.api.web.Timestamps;
import com.healthpartner.api.web.UserIds;

/**
 * {@code /api/v1/health/assessments}: submit an assessment, read one, list or export a
 * user's assessments.
 */
@Component
class AssessmentHandler {

	private static final String RESOURCE = "assessments";

	static final String PATH = "/api/v1/health/assessments";

	private final JsonBodies bodies;

	private final IdempotentCreates creates;

	private final AssessmentRepository assessments;

	private final Listings listings;

	private final Cursors cursors;

	private final JsonMapper mapper;

	private final Clock clock;

	private final AuditTrail audit;

	AssessmentHandler(JsonBodies bodies, IdempotentCreates creates, AssessmentRepository assessments, Listings listings,
			Cursors cursors, JsonMapper mapper, Clock clock, AuditTrail audit) {
		this.bodies = bodies;
		this.creates = creates;
		this.assessments = assessments;
		this.listings = listings;
		this.cursors = cursors;
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
			AssessmentRow row = new AssessmentRow(UUID.randomUUID(), submitted.userId(),
					this.mapper.writeValueAsString(submitted.responses()), Timestamps.truncate(this.clock.instant()));
			// a replay writes nothing, so only a stored record is audited
			return this.creates.create(partnerId, PATH, key, body,
					() -> this.assessments.insert(partnerId, row)
						.map((stored) -> new Created(PATH + "/" + stored.id(), AssessmentView.of(stored))),
					() -> this.audit.wrote(request, RESOURCE, submitted.userId()));
		});
	}

	Mono<ServerResponse> get(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		UUID id = RecordIds.parse(request.pathVariable("id"), "assessment");
		return this.assessments.find(partnerId, id)
			.switchIfEmpty(Mono.error(() -> RecordIds.notFound("assessment", id)))
			.doOnNext((row) -> this.audit.read(request, RESOURCE, row.userId(), 1))
			.flatMap((row) -> ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(AssessmentView.of(row)));
	}

	Mono<ServerResponse> list(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		boolean ndjson = Listings.wantsNdjson(request);
		FieldErrors errors = new FieldErrors();
		String userId = UserIds.fromQuery(request, errors);
		int limit = ndjson ? Paging.DEFAULT_LIMIT : Paging.limit(request, errors);
		errors.throwIfAny();
		// a cursor is valid only for this partner, path and user
		String query = PATH + "|" + partnerId + "|" + userId;
		Cursors.Position after = request.queryParam("cursor").map((c) -> this.cursors.decode(query, c)).orElse(null);
		if (ndjson) {
			return this.listings.ndjson(partnerId,
					this.audit.reading(request, RESOURCE, userId, this.assessments.stream(partnerId, userId, after))
						.map(AssessmentView::of));
		}
		return this.assessments.list(partnerId, userId, after, limit + 1)
			.collectList()
			.doOnNext((rows) -> this.audit.read(request, RESOURCE, userId, Math.min(rows.size(), limit)))
			.map((rows) -> Paging.page(rows, limit, AssessmentView::of, AssessmentRow::createdAt, AssessmentRow::id,
					this.cursors, query))
			.flatMap(this.listings::page);
	}

}
