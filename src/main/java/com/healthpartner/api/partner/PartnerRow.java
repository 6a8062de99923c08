package com.healthpartner.api.partner;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

record PartnerRow(UUID id, UUID registrationId, String partnerName, String email, String plan, String status,
		List<String> scopes, boolean signingRequired, Instant createdAt) {

	PartnerRow with(String plan, List<String> scopes, String status, boolean signingRequired) {
		return new PartnerRow(this.id, this.registrationId, this.partnerName, this.email, plan, status, scopes,
				signingRequired, this.createdAt);
	}

}
