package com.healthpartner.api.audit;

import java.util.Optional;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonRawValue;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.json.DateRange;
import com.healthpartner.api.json.RecordIds;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.json.UserIds;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.Paging;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.ProblemType;

/**
 * {@code GET /admin/v1/audit}: who read or wrote which user's health data (and each
 * import's start and end), oldest first, filtered by partner, user and time ({@code from}
 * and {@code to} inclusive, as dates or date-times like the metric filters).
 */
@Component
class AuditHandler {

	private final AuditRepository events;

	private final Cursors cursors;

	AuditHandler(AuditRepository events, Cursors cursors) {
		this.events = events;
		this.cursors = cursors;
	}

	Mono<ServerResponse> list(ServerRequest request) {
		FieldErrors errors = new FieldErrors();
		UUID partnerId = request.queryParam("partner_id").map((value) -> partnerId(value, errors)).orElse(null);
		String userId = request.queryParam(UserIds.FIELD).isPresent() ? UserIds.fromQuery(request, errors) : null;
		DateRange range = DateRange.of(request, "from", "to", errors);
		int limit = Paging.limit(request, errors);
		errors.throwIfAny();
		if (range.reversed()) {
			throw new ApiException(ProblemType.INVALID_DATE_RANGE, "from is after to; both ends are inclusive");
		}
		AuditQuery query = new AuditQuery(partnerId, userId, range);
		Cursors.Position after = request.queryParam("cursor")
			.map((cursor) -> this.cursors.decode(query.cursorScope(), cursor))
			.orElse(null);
		return this.events.list(query, after, limit + 1)
			.collectList()
			.map((rows) -> Paging.page(rows, limit, AuditHandler::view, AuditEvent::at, AuditEvent::id, this.cursors,
					query.cursorScope()))
			.flatMap((page) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(page));
	}

	private static UUID partnerId(String value, FieldErrors errors) {
		Optional<UUID> id = RecordIds.parse(value);
		if (id.isEmpty()) {
			errors.add("partner_id", "must be a partner id (a UUID)");
		}
		return id.orElse(null);
	}

	private static Entry view(AuditEvent event) {
		return new Entry(event.id(), Timestamps.format(event.at()), event.partnerId(), event.keyId(), event.userId(),
				event.action().value(), event.resource(), event.recordCount(), event.requestId(),
				event.importSummary());
	}

	/** An event as listed; {@code import} only on an import's events. */
	record Entry(UUID id, String at, UUID partnerId, UUID keyId, String userId, String action, String resource,
			long recordCount, String requestId,
			@JsonProperty("import") @JsonRawValue @JsonInclude(JsonInclude.Include.NON_NULL) String importSummary) {
	}

}
