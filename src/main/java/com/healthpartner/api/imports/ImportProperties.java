package com.healthpartner.api.imports;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Imports ({@code POST /api/v1/health/imports}): the largest body
 * ({@code APP_IMPORT_MAX_BYTES}, 1 GiB), how many imports of one partner may be receiving
 * or processing at once ({@code APP_IMPORT_MAX_ACTIVE}, 2), how many lines one
 * transaction applies ({@code APP_IMPORT_CHUNK_LINES}, 5000, and about
 * {@code APP_IMPORT_CHUNK_BYTES}, 2MB: a chunk ends at the line that reaches either) and
 * how many such chunks of an import an instance applies at once
 * ({@code APP_IMPORT_PARALLEL_CHUNKS}, 2), how long an instance's claim on an import
 * holds without news ({@code APP_IMPORT_CLAIM_LEASE}, also the pause before a failed
 * chunk is tried again), how many failed chunks in a row end an import {@code failed}
 * ({@code APP_IMPORT_MAX_FAILURES}), the share of the time the worker may work while the
 * service answers requests ({@code APP_IMPORT_BUSY_SHARE}, 0.01; 1: no pauses), the rate
 * an upload is read at meanwhile ({@code APP_IMPORT_BUSY_UPLOAD_RATE}, 1MB a second), and
 * how often the worker looks for imports to apply ({@code APP_IMPORT_POLL_INTERVAL}).
 */
@ConfigurationProperties("app.import")
public record ImportProperties(@DefaultValue("1073741824") long maxBytes, @DefaultValue("2") int maxActive,
		@DefaultValue("5000") int chunkLines, @DefaultValue("2MB") DataSize chunkBytes,
		@DefaultValue("2") int parallelChunks, @DefaultValue("30s") Duration claimLease,
		@DefaultValue("5") int maxFailures, @DefaultValue("0.01") double busyShare,
		@DefaultValue("1MB") DataSize busyUploadRate, @DefaultValue("1s") Duration pollInterval) {

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
		if (chunkBytes.toBytes() < 1024) {
			throw new IllegalArgumentException("APP_IMPORT_CHUNK_BYTES must be at least 1KB");
		}
		if (parallelChunks < 1 || parallelChunks > 16) {
			throw new IllegalArgumentException("APP_IMPORT_PARALLEL_CHUNKS must be between 1 and 16");
		}
		if (claimLease.toMillis() < 1000) {
			throw new IllegalArgumentException("APP_IMPORT_CLAIM_LEASE must be at least 1s");
		}
		if (maxFailures < 1) {
			throw new IllegalArgumentException("APP_IMPORT_MAX_FAILURES must be at least 1");
		}
		if (!(busyShare > 0 && busyShare <= 1)) {
			throw new IllegalArgumentException("APP_IMPORT_BUSY_SHARE must be above 0 and at most 1");
		}
		if (busyUploadRate.toBytes() < 65536) {
			throw new IllegalArgumentException("APP_IMPORT_BUSY_UPLOAD_RATE must be at least 64KB (a second)");
		}
		if (pollInterval.toMillis() < 10) {
			throw new IllegalArgumentException("APP_IMPORT_POLL_INTERVAL must be at least 10ms");
		}
	}

}
