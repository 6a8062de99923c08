package com.healthpartner.api.audit;

import java.time.Instant;
import java.util.UUID;

/**
 * One access to health data: which partner, through which key, read or wrote how many
 * records of which of its users, when, in which request.
 */
public record AuditEvent(UUID id, Instant at, UUID partnerId, UUID keyId, String userId, Action action, String resource,
		long recordCount, String requestId) {

	public enum Action {

		READ, WRITE, DELETE, ERASE;

		public String value() {
			return name().toLowerCase();
		}

	}

}
