package com.healthpartner.api.records;

import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.Principals;
import com.healthpartner.api.audit.AuditTrail;
import com.healthpartner.api.json.DateRange;
import com.healthpartner.api.json.UserIds;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.listing.Paging;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.RequestIds;
import com.healthpartner.api.web.HeadRequests;

/**
 * The one flow of {@code GET} on a list of a user's health records, metrics and
 * assessments alike: the parameters (every bad one in one {@code 400}), a cursor bound to
 * the partner, path, user and date range, a JSON page or an NDJSON export, and the audit
 * event of what was read.
 */
@Component
class RecordLists {

	private final Listings listings;

	private final Cursors cursors;

	private final AuditTrail audit;

	RecordLists(Listings listings, Cursors cursors, AuditTrail audit) {
		this.listings = listings;
		this.cursors = cursors;
		this.audit = audit;
	}

	Mono<ServerResponse> list(ServerRequest request, RecordRepository records) {
		RecordKind kind = records.kind();
		boolean ndjson = Listings.wantsNdjson(request);
		FieldErrors errors = new FieldErrors();
		String userId = UserIds.fromQuery(request, errors);
		DateRange range = kind.dated() ? DateRange.of(request, errors) : DateRange.ANY;
		int limit = ndjson ? Paging.DEFAULT_LIMIT : Paging.limit(request, errors);
		errors.throwIfAny();
		range.requireOrdered();
		ApiPrincipal principal = Principals.of(request);
		UUID partnerId = principal.partnerId();
		Cursors.Position after = request.queryParam("cursor")
			.map((c) -> this.cursors.decode(scope(kind, partnerId, userId, range), c))
			.orElse(null);
		UserQuery query = new UserQuery(partnerId, userId, range, after);
		if (ndjson && HeadRequests.isHead(request)) {
			// the headers of the export without running it: no query, no slot, nothing
			// read
			return this.listings.ndjsonHead();
		}
		if (ndjson) {
			return this.listings.ndjson(partnerId,
					this.audit.reading(request, kind.resource(), userId, records.stream(query)));
		}
		String requestId = RequestIds.of(request.exchange());
		return records.page(query, limit).flatMap((page) -> {
			this.audit.read(principal, requestId, kind.resource(), userId, page.shown(limit));
			String next = page.more(limit)
					? this.cursors.encode(scope(kind, partnerId, userId, range), page.lastAt(), page.lastId()) : null;
			return this.listings.page(page.views(), next);
		});
	}

	/**
	 * What a cursor is bound to: it is valid only for this partner, path, user and date
	 * range. Written only for a page that has a cursor or gives one.
	 */
	private static String scope(RecordKind kind, UUID partnerId, String userId, DateRange range) {
		return kind.path() + "|" + partnerId + "|" + userId + (kind.dated() ? "|" + range.key() : "");
	}

}
