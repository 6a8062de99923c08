package com.healthpartner.api.changes;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long changes are kept ({@code APP_CHANGES_RETENTION}, default 30 days) and how many
 * old changes one statement of the retention sweep deletes.
 */
@ConfigurationProperties("app.changes")
public record ChangesProperties(@DefaultValue("30d") Duration retention, @DefaultValue("5000") int retentionBatch) {

	public ChangesProperties {
		if (retention == null || retention.toMinutes() < 1) {
			throw new IllegalArgumentException("APP_CHANGES_RETENTION must be a duration of at least 1m (such as 30d)");
		}
		if (retentionBatch < 1 || retentionBatch > 100_000) {
			throw new IllegalArgumentException("APP_CHANGES_RETENTION_BATCH must be between 1 and 100000");
		}
	}

}
