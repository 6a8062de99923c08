package com.healthpartner.api.audit;

import java.util.UUID;

import com.healthpartner.api.json.DateRange;

/**
 * The administrator's filters of the audit trail; each may be absent. {@code range} is
 * {@code [from, until)}.
 */
record AuditQuery(UUID partnerId, String userId, DateRange range) {

	/** Binds a cursor to these filters, so it cannot be used with others. */
	String cursorScope() {
		return "audit|" + this.partnerId + "|" + this.userId + "|" + this.range.key();
	}

}
