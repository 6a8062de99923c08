package com.healthpartner.api.metric;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.records.RecordKind;

/**
 * Metrics records: measurements of a user at a time ({@code recorded_at}), checked
 * against the catalog ({@link MetricRequests}).
 */
public final class Metrics {

	public static final RecordKind KIND = new RecordKind("metrics", "metrics record", "metric_records", "metrics",
			"metric_view", true, Scope.METRICS_READ, Scope.METRICS_WRITE, MetricRequests::read);

	private Metrics() {
	}

}
