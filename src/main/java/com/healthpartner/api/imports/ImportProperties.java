package com.healthpartner.api.imports;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Imports ({@code POST /api/v1/health/imports}): the largest body
 * ({@code APP_IMPORT_MAX_BYTES}, 1 GiB), how many imports of one partner may be receiving
 * or processing at once ({@code APP_IMPORT_MAX_ACTIVE}, 2), how many lines one
 * transaction applies ({@code APP_IMPORT_CHUNK_LINES}), how long an instance's claim on
 * an import holds without news ({@code APP_IMPORT_CLAIM_LEASE}, also the pause before a
 * failed chunk is tried again), how many failed chunks in a row end an import
 * {@code failed} ({@code APP_IMPORT_MAX_FAILURES}), and how often the worker looks for
 * imports to apply ({@code APP_IMPORT_POLL_INTERVAL}).
 */
@ConfigurationProperties("app.import")
public record ImportProperties(@DefaultValue("1073741824") long maxBytes, @DefaultValue("2") int maxActive,
		@DefaultValue("1000") int chunkLines, @DefaultValue("30s") Duration claimLease,
		@DefaultValue("5") int maxFailures, @DefaultValue("1s") Duration pollInterval) {

	public ImportProperties {
		if (maxBytes < 1024) {
			throw new IllegalArgumentException("APP_IMPORT_MAX_BYTES must be at least 1024");
		}
		if (maxActive < 1 || maxActive > 1000) {
			throw new IllegalArgumentException("APP_IMPORT_MAX_ACTIVE must be between 1 and 1000");
		}
		if (chunkLines < 1 || chunkLines > 10_000) {
			throw new IllegalArgumentException("APP_IMPORT_CHUNK_LINES must be between 1 and 10000");
		}
		if (claimLease.toMillis() < 1000) {
			throw new IllegalArgumentException("APP_IMPORT_CLAIM_LEASE must be at least 1s");
		}
		if (maxFailures < 1) {
			throw new IllegalArgumentException("APP_IMPORT_MAX_FAILURES must be at least 1");
		}
		if (pollInterval.toMillis() < 10) {
			throw new IllegalArgumentException("APP_IMPORT_POLL_INTERVAL must be at least 10ms");
		}
	}

}
