package com.healthpartner.api.metric;

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
import com.healthpartner.api.audit.AuditTrail;
import com.healthpartner.api.idempotency.Created;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.metric.MetricRequests.NewMetrics;
import com.healthpartner.api.web.Cursors;
import com.healthpartner.api.web.DateRange;
import com.healthpartner.api.web.FieldErrors;
import com.healthpartner.api.web.JsonBodies;
import com.healthpartner.api.web.Listings;
import com.healthpartner.api.web.Page;
import com.healthpartner.api.web.Paging;
import com.healthpartner.api.web.RecordIds;
import com.healthpartner.api.web.Timestamps;
import com.healthpartner.api.web.UserIds;

/**
 * {@code /api/v1/health/metrics}: submit a metrics record, read one, list or export a
 * user's records, and the metric catalog.
 */
@Component
class MetricHandler {

	private static final String RESOURCE = "metrics";

	static final String PATH = "/api/v1/health/metrics";

	private final JsonBodies bodies;

	private final IdempotentCreates creates;

	private final MetricRepository metrics;

	private final Listings listings;

	private final Cursors cursors;

	private final JsonMapper mapper;

	private final Clock clock;

	private final AuditTrail audit;

	MetricHandler(JsonBodies bodies, IdempotentCreates creates, MetricRepository metrics, Listings listings,
			Cursors cursors, JsonMapper mapper, Clock clock, AuditTrail audit) {
		this.bodies = bodies;
		this.creates = creates;
		this.metrics = metrics;
		this.listings = listings;
		this.cursors = cursors;
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
			NewMetrics submitted = MetricRequests.read(body, now, errors);
			errors.throwIfAny();
			MetricRow row = new MetricRow(UUID.randomUUID(), submitted.userId(),
					this.mapper.writeValueAsString(submitted.metrics()), submitted.recordedAt(),
					Timestamps.truncate(now));
			// a replay writes nothing, so only a stored record is audited
			return this.creates.create(partnerId, PATH, key, body,
					() -> this.metrics.insert(partnerId, row)
						.map((stored) -> new Created(PATH + "/" + stored.id(), MetricView.of(stored))),
					() -> this.audit.wrote(request, RESOURCE, submitted.userId()));
		});
	}

	Mono<ServerResponse> get(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		UUID id = RecordIds.parse(request.pathVariable("id"), "metrics record");
		return this.metrics.find(partnerId, id)
			.switchIfEmpty(Mono.error(() -> RecordIds.notFound("metrics record", id)))
			.doOnNext((row) -> this.audit.read(request, RESOURCE, row.userId(), 1))
			.flatMap(
					(row) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(MetricView.of(row)));
	}

	Mono<ServerResponse> list(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		boolean ndjson = Listings.wantsNdjson(request);
		FieldErrors errors = new FieldErrors();
		String userId = UserIds.fromQuery(request, errors);
		DateRange range = DateRange.of(request, errors);
		int limit = ndjson ? Paging.DEFAULT_LIMIT : Paging.limit(request, errors);
		errors.throwIfAny();
		range.requireOrdered();
		// a cursor is valid only for this partner, path, user and date range
		String query = PATH + "|" + partnerId + "|" + userId + "|" + range.key();
		Cursors.Position after = request.queryParam("cursor").map((c) -> this.cursors.decode(query, c)).orElse(null);
		if (ndjson) {
			return this.listings.ndjson(partnerId,
					this.audit.reading(request, RESOURCE, userId, this.metrics.stream(partnerId, userId, range, after))
						.map(MetricView::of));
		}
		return this.metrics.list(partnerId, userId, range, after, limit + 1)
			.collectList()
			.doOnNext((rows) -> this.audit.read(request, RESOURCE, userId, Math.min(rows.size(), limit)))
			.map((rows) -> Paging.page(rows, limit, MetricView::of, MetricRow::recordedAt, MetricRow::id, this.cursors,
					query))
			.flatMap(this.listings::page);
	}

	Mono<ServerResponse> catalog(ServerRequest request) {
		return this.listings.page(new Page<>(MetricCatalog.entries(), null));
	}

}
