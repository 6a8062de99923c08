package com.healthpartner.api.json;

import org.springframework.stereotype.Component;

import com.healthpartner.api.system.AppProperties;
import com.healthpartner.api.system.BatchProperties;

/**
 * The largest body a route takes: {@code APP_BATCH_MAX_BYTES} for the batch routes of the
 * record kinds ({@code /api/v1/health/<kind>/batch}), {@code APP_MAX_BODY_BYTES} for
 * every other. The JSON reader and the signature check (which reads a signed body first)
 * both ask here, so the two never disagree.
 */
@Component
public class BodyLimits {

	private static final String RECORDS = "/api/v1/health/";

	private static final String BATCH = "/batch";

	private final int maxBodyBytes;

	private final int maxBatchBytes;

	public BodyLimits(AppProperties properties, BatchProperties batches) {
		this.maxBodyBytes = properties.maxBodyBytes();
		this.maxBatchBytes = batches.maxBytes();
	}

	/** The limit of the route at {@code path} (the request's path, without query). */
	public int of(String path) {
		return (path.endsWith(BATCH) && path.startsWith(RECORDS)) ? this.maxBatchBytes : this.maxBodyBytes;
	}

}
