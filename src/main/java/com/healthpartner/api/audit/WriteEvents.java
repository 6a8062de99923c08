package com.healthpartner.api.audit;

import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;

/**
 * A write's audit event, written by the very statement that writes its record: a common
 * table expression that inserts the event once for each row the statement's
 * {@code source} expression returns. A statement is atomic, so the record and its event
 * are committed together or not at all, with no transaction or round trip of their own; a
 * statement that writes no row (nothing changed) writes no event.
 */
public final class WriteEvents {

	private WriteEvents() {
	}

	/**
	 * {@code audit as (insert into audit_events ... select ... from source)}, to follow
	 * the {@code with} of a statement; its parameters are bound by {@link #bind}.
	 */
	public static String insertFor(String source) {
		return """
				audit as (
				  insert into audit_events (id, at, partner_id, key_id, user_id, action, resource, record_count, request_id)
				  select :auditId, :auditAt, :auditPartnerId, :auditKeyId, :auditUserId, :auditAction, :auditResource, 1,
				         :auditRequestId
				  from %s
				)"""
			.formatted(source);
	}

	public static GenericExecuteSpec bind(GenericExecuteSpec statement, AuditEvent event) {
		return statement.bind("auditId", event.id())
			.bind("auditAt", event.at())
			.bind("auditPartnerId", event.partnerId())
			.bind("auditKeyId", event.keyId())
			.bind("auditUserId", event.userId())
			.bind("auditAction", event.action().value())
			.bind("auditResource", event.resource())
			.bind("auditRequestId", event.requestId());
	}

}
