package com.healthpartner.api.erasure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The erasure worker: records deleted per statement ({@code APP_ERASURE_BATCH_SIZE}), the
 * pause between two statements that leaves the database to other work
 * ({@code APP_ERASURE_BATCH_PAUSE}) and how often pending erasures are looked for
 * ({@code APP_ERASURE_POLL_INTERVAL}); an erasure requested on this instance is started
 * at once.
 */
@ConfigurationProperties("app.erasure")
public record ErasureProperties(@DefaultValue("1000") int batchSize, @DefaultValue("5ms") Duration batchPause,
		@DefaultValue("1s") Duration pollInterval) {

	public ErasureProperties {
		if (batchSize < 1 || batchSize > 100_000) {
			throw new IllegalArgumentException("APP_ERASURE_BATCH_SIZE must be between 1 and 100000");
		}
		if (batchPause == null || batchPause.isNegative() || batchPause.toSeconds() > 10) {
			throw new IllegalArgumentException("APP_ERASURE_BATCH_PAUSE must be a duration from 0ms to 10s");
		}
		if (pollInterval == null || pollInterval.toMillis() < 10) {
			throw new IllegalArgumentException("APP_ERASURE_POLL_INTERVAL must be a duration of at least 10ms");
		}
	}

}
