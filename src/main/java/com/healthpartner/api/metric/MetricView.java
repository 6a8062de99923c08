package com.healthpartner.api.metric;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.records.RecordViews;
import com.healthpartner.api.text.JsonWritable;

/**
 * A metrics record as partners see it, written straight from its row: {@code metrics} as
 * the JSON text the database returned, so no record is parsed on its way out, and each
 * time appended in place rather than formatted into a string of its own.
 */
record MetricView(MetricRow row) implements JsonWritable {

	static MetricView of(MetricRow row) {
		return new MetricView(row);
	}

	@Override
	public void writeJson(StringBuilder out) {
		RecordViews.head(out, this.row.id(), this.row.userId(), this.row.clientRecordId(),
				this.row.clientRecordVersion());
		out.append(",\"metrics\":").append(this.row.metrics()).append(",\"recorded_at\":\"");
		Timestamps.append(out, this.row.recordedAt()).append("\",\"created_at\":\"");
		Timestamps.append(out, this.row.createdAt()).append("\",\"updated_at\":\"");
		Timestamps.append(out, this.row.updatedAt()).append("\"}");
	}

}
