package com.healthpartner.api.partner;

import java.time.Instant;
import java.util.UUID;

record RegistrationRow(UUID id, String email, String partnerName, RegistrationStatus status, String reason,
		UUID partnerId, Instant createdAt, Instant decidedAt) {
}
