package com.healthpartner.api.audit;

import java.util.UUID;

/**
 * Where health-data handlers report every access. Recording never waits for the database:
 * the events are written in batches.
 */
public interface AuditTrail {

	void record(UUID partnerId, UUID keyId, String userId, AuditEvent.Action action, String resource, long recordCount,
			String requestId);

}
