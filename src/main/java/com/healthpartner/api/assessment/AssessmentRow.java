package com.healthpartner.api.assessment;

import java.time.Instant;
import java.util.UUID;

/**
 * A stored assessment; {@code responses} is the stored {@code jsonb} as JSON text.
 */
record AssessmentRow(UUID id, String userId, String responses, Instant createdAt) {
}
