package com.healthpartner.api.changes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.Principals;
import com.healthpartner.api.audit.AuditTrail;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.Paging;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.Utf8Bytes;
import com.healthpartner.api.web.BytesBody;

/**
 * {@code GET /api/v1/health/changes}: the partner's changes in the order they became
 * visible, of the resources the key may read. {@code next_cursor} is never null: after
 * the last change it points at the horizon, so that a client that finds nothing new keeps
 * a cursor as fresh as its last look.
 */
@Component
class ChangesHandler {

	static final String PATH = "/api/v1/health/changes";

	private final ChangeRepository changes;

	private final Cursors cursors;

	private final AuditTrail audit;

	private final List<RecordKind> kinds;

	ChangesHandler(ChangeRepository changes, Cursors cursors, AuditTrail audit, List<RecordKind> kinds) {
		this.changes = changes;
		this.kinds = kinds;
		this.cursors = cursors;
		this.audit = audit;
	}

	Mono<ServerResponse> list(ServerRequest request) {
		ApiPrincipal principal = Principals.of(request);
		List<String> readable = new ArrayList<>();
		for (RecordKind kind : this.kinds) {
			if (principal.scopes().contains(kind.read())) {
				readable.add("'" + kind.resource() + "'");
			}
		}
		// a cursor holds for this partner and the kinds its key reads
		String scope = FeedCursors.scope(principal.partnerId(), principal.scopes(), this.kinds);
		FieldErrors errors = new FieldErrors();
		int limit = Paging.limit(request, errors);
		errors.throwIfAny();
		UUID partnerId = principal.partnerId();
		long[] after = request.queryParam("cursor")
			.map((cursor) -> this.cursors.decodeNumbers(scope, cursor))
			.orElse(new long[] { 0, 0 });
		boolean fromStart = request.queryParam("cursor").isEmpty();
		String resources = (readable.size() == this.kinds.size()) ? "true" : (readable.size() == 1)
				? "c.resource = " + readable.get(0) : "c.resource in (" + String.join(", ", readable) + ")";
		return this.changes.page(partnerId, resources, after[0], after[1], limit + 1).map((slice) -> {
			if (!fromStart && after[0] < slice.keptFrom()) {
				throw new ApiException(ProblemType.CURSOR_EXPIRED,
						"This cursor is older than the changes kept; resync from the lists or the NDJSON export, "
								+ "then follow the feed again from its start (without cursor)");
			}
			return body(request, slice, limit, after, scope);
		})
			.flatMap((body) -> ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.body(BytesBody.of(body.array(), body.length())));
	}

	private Utf8Bytes body(ServerRequest request, ChangeRepository.Slice slice, int limit, long[] after, String scope) {
		boolean more = slice.changes().size() > limit;
		List<ChangeRow> listed = more ? slice.changes().subList(0, limit) : slice.changes();
		int length = 64;
		for (ChangeRow change : listed) {
			length += 48 + change.item().length;
		}
		Utf8Bytes json = new Utf8Bytes(length).append("{\"data\":[");
		Map<Read, Long> read = new HashMap<>();
		for (int i = 0; i < listed.size(); i++) {
			ChangeRow change = listed.get(i);
			if (i > 0) {
				json.append(',');
			}
			ChangeView.write(json, change);
			if (change.shownResource() != null) {
				read.merge(new Read(change.shownResource(), change.shownUserId()), 1L, Long::sum);
			}
		}
		read.forEach((key, count) -> this.audit.read(request, key.resource(), key.userId(), count));
		long[] next = after;
		if (more) {
			ChangeRow last = listed.get(listed.size() - 1);
			next = new long[] { last.txid(), last.seq() };
		}
		else if (after[0] < slice.horizon()) {
			// every change below the horizon has been listed: the next look starts there
			next = new long[] { slice.horizon(), 0 };
		}
		StringBuilder end = new StringBuilder(96).append("],\"next_cursor\":");
		JsonText.quote(end, this.cursors.encode(scope, next[0], next[1]));
		return json.append(end.append(",\"has_more\":").append(more).append('}').toString());
	}

	/** The records of one user and resource that a page shows: one audit event each. */
	private record Read(String resource, String userId) {
	}

}
