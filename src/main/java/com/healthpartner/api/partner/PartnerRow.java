package com.healthpartner.api.partner;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.healthpartner.api.access.PartnerStatus;

record PartnerRow(UUID id, UUID registrationId, String partnerName, String email, String plan, PartnerStatus status,
		List<String> scopes, boolean signingRequired, Instant createdAt) {
}
