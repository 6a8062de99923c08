package com.healthpartner.api.credential;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

public record KeyRow(UUID id, UUID partnerId, byte[] keyHash, String prefix, byte[] secretCiphertext,
		List<String> scopes, Instant createdAt, Instant lastUsedAt, Instant expiresAt, Instant revokedAt) {
}
