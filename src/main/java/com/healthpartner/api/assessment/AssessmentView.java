package com.healthpartner.api.assessment;

import com.fasterxml.jackson.annotation.JsonRawValue;

import com.healthpartner.api.json.Timestamps;

/**
 * An assessment as partners see it. {@code responses} is written as the JSON text the
 * database returned, so no record is parsed on its way out.
 */
record AssessmentView(String id, String userId, @JsonRawValue String responses, String createdAt) {

	static AssessmentView of(AssessmentRow row) {
		return new AssessmentView(row.id().toString(), row.userId(), row.responses(),
				Timestamps.format(row.createdAt()));
	}

}
