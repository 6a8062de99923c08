package com.healthpartner.api.metric;

import com.fasterxml.jackson.annotation.JsonRawValue;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/**
 * A metrics record as partners see it. {@code metrics} is written as the JSON text the
 * database returned, so no record is parsed on its way out.
 */
record MetricView(String id, String userId, String clientRecordId, Long clientRecordVersion,
		@JsonRawValue String metrics, String recordedAt, String createdAt, String updatedAt) implements JsonWritable {

	static MetricView of(MetricRow row) {
		return new MetricView(row.id().toString(), row.userId(), row.clientRecordId(), row.clientRecordVersion(),
				row.metrics(), Timestamps.format(row.recordedAt()), Timestamps.format(row.createdAt()),
				Timestamps.format(row.updatedAt()));
	}

	@Override
	public void writeJson(StringBuilder out) {
		out.append("{\"id\":\"").append(this.id).append("\",\"user_id\":");
		JsonText.quote(out, this.userId).append(",\"client_record_id\":");
		if (this.clientRecordId != null) {
			JsonText.quote(out, this.clientRecordId);
		}
		else {
			out.append("null");
		}
		out.append(",\"client_record_version\":").append(this.clientRecordVersion);
		out.append(",\"metrics\":").append(this.metrics).append(",\"recorded_at\":\"");
		out.append(this.recordedAt).append("\",\"created_at\":\"").append(this.createdAt);
		out.append("\",\"updated_at\":\"").append(this.updatedAt).append("\"}");
	}

}
