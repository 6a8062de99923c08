package com.healthpartner.api.audit;

import java.time.Instant;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.web.reactive.function.server.ServerRequest;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.Principals;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.problem.RequestIds;

/**
 * Who makes a write, for an audit event written by the write's own statement (so that the
 * event commits with the change or not at all). The statement inserts into
 * {@code audit_events} with the bindings {@code auditId}, {@code auditAt}, {@code keyId}
 * and {@code requestId} ({@link #bind}); the upsert of records takes them as arrays, one
 * element per write of its batch ({@code records/WriteBatches}).
 */
public record AuditActor(UUID partnerId, UUID keyId, String requestId, Instant at) {

	public static AuditActor of(ServerRequest request, Instant now) {
		ApiPrincipal principal = Principals.of(request);
		return new AuditActor(principal.partnerId(), principal.keyId(), RequestIds.of(request.exchange()),
				Timestamps.truncate(now));
	}

	public GenericExecuteSpec bind(GenericExecuteSpec spec) {
		return spec.bind("auditId", Ids.ordered(this.at.toEpochMilli()))
			.bind("auditAt", this.at)
			.bind("keyId", this.keyId)
			.bind("requestId", this.requestId);
	}

}
