package com.healthpartner.api.assessment;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.records.RecordViews;
import com.healthpartner.api.text.JsonWritable;

/**
 * An assessment as partners see it, written straight from its row: {@code responses} as
 * the JSON text the database returned, so no record is parsed on its way out, and each
 * time appended in place rather than formatted into a string of its own.
 */
record AssessmentView(AssessmentRow row) implements JsonWritable {

	static AssessmentView of(AssessmentRow row) {
		return new AssessmentView(row);
	}

	@Override
	public void writeJson(StringBuilder out) {
		RecordViews.head(out, this.row.id(), this.row.userId(), this.row.clientRecordId(),
				this.row.clientRecordVersion());
		out.append(",\"responses\":").append(this.row.responses()).append(",\"created_at\":\"");
		Timestamps.append(out, this.row.createdAt()).append("\",\"updated_at\":\"");
		Timestamps.append(out, this.row.updatedAt()).append("\"}");
	}

}
