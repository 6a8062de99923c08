package com.healthpartner.api.partner;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

record PartnerRow(UUID id, UUID registrationId, String partnerName, String email, String plan, String status,
		List<String> scopes, boolean signingRequired, Instant createdAt) {
}
