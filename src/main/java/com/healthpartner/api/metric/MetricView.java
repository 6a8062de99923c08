package com.healthpartner.api.metric;

import com.fasterxml.jackson.annotation.JsonRawValue;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/**
 * A metrics record as partners see it. {@code metrics} is written as the JSON text the
 * database returned, so no record is parsed on its way out.
 */
record MetricView(String id, String userId, @JsonRawValue String metrics, String recordedAt,
		String createdAt) implements JsonWritable {

	static MetricView of(MetricRow row) {
		return new MetricView(row.id().toString(), row.userId(), row.metrics(), Timestamps.format(row.recordedAt()),
				Timestamps.format(row.createdAt()));
	}

	@Override
	public void writeJson(StringBuilder out) {
		out.append("{\"id\":\"").append(this.id).append("\",\"user_id\":");
		JsonText.quote(out, this.userId).append(",\"metrics\":").append(this.metrics).append(",\"recorded_at\":\"");
		out.append(this.recordedAt).append("\",\"created_at\":\"").append(this.createdAt).append("\"}");
	}

}
