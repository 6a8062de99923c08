package com.healthpartner.api.audit;

import java.time.Instant;
import java.util.UUID;

/**
 * One access to health data: which partner, through which key, read or wrote how many
 * records of which of its users, when, in which request. An import's events
 * ({@link Action#IMPORT}) are about the import, not one user: {@code userId} is null and
 * {@code importSummary} holds the import's id, status and counts as JSON.
 */
public record AuditEvent(UUID id, Instant at, UUID partnerId, UUID keyId, String userId, Action action, String resource,
		long recordCount, String requestId, String importSummary) {

	/** An access to one user's records. */
	public AuditEvent(UUID id, Instant at, UUID partnerId, UUID keyId, String userId, Action action, String resource,
			long recordCount, String requestId) {
		this(id, at, partnerId, keyId, userId, action, resource, recordCount, requestId, null);
	}

	public enum Action {

		READ, WRITE, DELETE, ERASE, IMPORT;

		public String value() {
			return name().toLowerCase();
		}

	}

}
