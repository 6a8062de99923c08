package com.healthpartner.api.json;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;

import com.healthpartner.api.system.AppProperties;
import com.healthpartner.api.system.BatchProperties;

/**
 * The largest body a route takes: {@code APP_BATCH_MAX_BYTES} for the batch routes of the
 * record kinds ({@code /api/v1/health/<kind>/batch}), {@code APP_MAX_BODY_BYTES} for
 * every other, none for a body that is streamed ({@link #streamed}). The JSON reader and
 * the signature check (which reads a signed body first) both ask here, so the two never
 * disagree.
 */
@Component
public class BodyLimits {

	private static final String RECORDS = "/api/v1/health/";

	private static final String BATCH = "/batch";

	private static final String IMPORTS = "/api/v1/health/imports";

	private final int maxBodyBytes;

	private final int maxBatchBytes;

	public BodyLimits(AppProperties properties, BatchProperties batches) {
		this.maxBodyBytes = properties.maxBodyBytes();
		this.maxBatchBytes = batches.maxBytes();
	}

	/**
	 * Whether the request's body is streamed to storage as it arrives instead of read
	 * within a limit: the upload of an import ({@code POST /api/v1/health/imports}),
	 * whose body may be a gigabyte and take minutes. The request deadline, the gate and
	 * the signature check all ask here.
	 */
	public static boolean streamed(ServerHttpRequest request) {
		return request.getMethod() == HttpMethod.POST && IMPORTS.equals(request.getPath().value());
	}

	/** The limit of the route at {@code path} (the request's path, without query). */
	public int of(String path) {
		return (path.endsWith(BATCH) && path.startsWith(RECORDS)) ? this.maxBatchBytes : this.maxBodyBytes;
	}

}
