package com.healthpartner.api.assessment;

import com.fasterxml.jackson.annotation.JsonRawValue;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/**
 * An assessment as partners see it. {@code responses} is written as the JSON text the
 * database returned, so no record is parsed on its way out.
 */
record AssessmentView(String id, String userId, @JsonRawValue String responses,
		String createdAt) implements JsonWritable {

	static AssessmentView of(AssessmentRow row) {
		return new AssessmentView(row.id().toString(), row.userId(), row.responses(),
				Timestamps.format(row.createdAt()));
	}

	@Override
	public void writeJson(StringBuilder out) {
		out.append("{\"id\":\"").append(this.id).append("\",\"user_id\":");
		JsonText.quote(out, this.userId).append(",\"responses\":").append(this.responses).append(",\"created_at\":\"");
		out.append(this.createdAt).append("\"}");
	}

}
