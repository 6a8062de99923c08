package com.healthpartner.api.audit;

import java.time.Instant;
import java.util.UUID;

/**
 * The administrator's filters of the audit trail; each may be absent.
 */
record AuditQuery(UUID partnerId, String userId, Instant from, Instant to) {

	/** Binds a cursor to these filters, so it cannot be replayed with others. */
	String cursorScope() {
		return "audit|" + this.partnerId + "|" + this.userId + "|" + this.from + "|" + this.to;
	}

}
