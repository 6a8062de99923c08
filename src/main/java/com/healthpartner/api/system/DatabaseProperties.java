package com.healthpartner.api.system;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Bounds on the database's time and connections ({@code app.database.*}): how long a
 * request waits for one statement before it is given up ({@code statementDeadline}), how
 * many requests of one kind may wait for a shared statement of one event loop
 * ({@code maxWaitingPerLoop}: held in memory, each bounded by the request deadline). The
 * pool's connections are shared by every request, so NDJSON exports, which each hold one
 * for as long as their client reads, are capped per partner and per instance and are
 * ended when their client stops reading. Each failure names the environment variable an
 * operator sets.
 */
@ConfigurationProperties("app.database")
public record DatabaseProperties(@DefaultValue("2s") Duration connectTimeout,
		@DefaultValue("5s") Duration statementTimeout, @DefaultValue("2s") Duration statementDeadline,
		@DefaultValue("16384") int maxWaitingPerLoop, @DefaultValue("10m") Duration exportTimeout,
		@DefaultValue("60s") Duration exportIdleTimeout, @DefaultValue("8") int maxConcurrentExports,
		@DefaultValue("2") int maxConcurrentExportsPerPartner) {

	public DatabaseProperties {
		requirePositive(connectTimeout, "APP_DATABASE_CONNECT_TIMEOUT");
		requirePositive(statementTimeout, "APP_DATABASE_STATEMENT_TIMEOUT");
		requirePositive(statementDeadline, "APP_DATABASE_STATEMENT_DEADLINE");
		if (maxWaitingPerLoop < 1 || maxWaitingPerLoop > 1_000_000) {
			throw new IllegalArgumentException("APP_DATABASE_MAX_WAITING_PER_LOOP must be between 1 and 1000000");
		}
		requirePositive(exportTimeout, "APP_DATABASE_EXPORT_TIMEOUT");
		if (exportIdleTimeout == null || exportIdleTimeout.toMillis() < 1000) {
			throw new IllegalArgumentException("APP_DATABASE_EXPORT_IDLE_TIMEOUT must be at least 1s");
		}
		if (maxConcurrentExports < 1 || maxConcurrentExports > 1000) {
			throw new IllegalArgumentException("APP_DATABASE_MAX_CONCURRENT_EXPORTS must be between 1 and 1000");
		}
		if (maxConcurrentExportsPerPartner < 1 || maxConcurrentExportsPerPartner > maxConcurrentExports) {
			throw new IllegalArgumentException(
					"APP_DATABASE_MAX_CONCURRENT_EXPORTS_PER_PARTNER must be between 1 and APP_DATABASE_MAX_CONCURRENT_EXPORTS");
		}
	}

	private static void requirePositive(Duration duration, String variable) {
		if (duration == null || duration.isNegative() || duration.isZero()) {
			throw new IllegalArgumentException(variable + " must be a positive duration (such as 5s)");
		}
	}

}
