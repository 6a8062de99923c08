package com.healthpartner.api.metric;

import java.time.Instant;
import java.util.UUID;

/**
 * A stored metrics record; {@code metrics} is the stored {@code jsonb} as JSON text.
 */
record MetricRow(UUID id, String userId, String metrics, Instant recordedAt, Instant createdAt) {
}
