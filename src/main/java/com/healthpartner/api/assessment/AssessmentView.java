package com.healthpartner.api.assessment;

import com.fasterxml.jackson.annotation.JsonRawValue;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/**
 * An assessment as partners see it. {@code responses} is written as the JSON text the
 * database returned, so no record is parsed on its way out.
 */
record AssessmentView(String id, String userId, String clientRecordId, Long clientRecordVersion,
		@JsonRawValue String responses, String createdAt, String updatedAt) implements JsonWritable {

	static AssessmentView of(AssessmentRow row) {
		return new AssessmentView(row.id().toString(), row.userId(), row.clientRecordId(), row.clientRecordVersion(),
				row.responses(), Timestamps.format(row.createdAt()), Timestamps.format(row.updatedAt()));
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
		out.append(",\"responses\":").append(this.responses).append(",\"created_at\":\"");
		out.append(this.createdAt).append("\",\"updated_at\":\"").append(this.updatedAt).append("\"}");
	}

}
