package com.healthpartner.api.system;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The bounds of a batch ({@code POST /api/v1/health/<kind>/batch}): at most
 * {@code maxRecords} items ({@code APP_BATCH_MAX_RECORDS}, default 1,000) in a body of at
 * most {@code maxBytes} ({@code APP_BATCH_MAX_BYTES}, default 2 MiB).
 */
@ConfigurationProperties("app.batch")
public record BatchProperties(@DefaultValue("1000") int maxRecords, @DefaultValue("2097152") int maxBytes) {

	public BatchProperties {
		if (maxRecords < 1 || maxRecords > 10_000) {
			throw new IllegalArgumentException("APP_BATCH_MAX_RECORDS must be between 1 and 10000");
		}
		if (maxBytes < 1024 || maxBytes > 64 * 1024 * 1024) {
			throw new IllegalArgumentException("APP_BATCH_MAX_BYTES must be between 1024 and 67108864");
		}
	}

}
