package com.healthpartner.api.metric;

import com.fasterxml.jackson.annotation.JsonRawValue;

import com.healthpartner.api.json.Timestamps;

/**
 * A metrics record as partners see it. {@code metrics} is written as the JSON text the
 * database returned, so no record is parsed on its way out.
 */
record MetricView(String id, String userId, @JsonRawValue String metrics, String recordedAt, String createdAt) {

	static MetricView of(MetricRow row) {
		return new MetricView(row.id().toString(), row.userId(), row.metrics(), Timestamps.format(row.recordedAt()),
				Timestamps.format(row.createdAt()));
	}

}
