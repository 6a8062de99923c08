package com.healthpartner.api.assessment;

import java.time.Instant;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import com.healthpartner.api.json.JsonFields;
import com.healthpartner.api.json.JsonValues;
import com.healthpartner.api.json.UserIds;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.records.ClientRecord;
import com.healthpartner.api.records.RecordKind;

/**
 * Reads and checks the body of {@code POST /api/v1/health/assessments}: any JSON inside
 * {@code responses}, as long as it can be stored and read back unchanged ({@code now} is
 * not used: an assessment is dated by its {@code created_at}).
 */
final class AssessmentRequests {

	static final int MAX_RESPONSES = 200;

	private static final Set<String> FIELDS = Set.of("user_id", "responses", ClientRecord.ID, ClientRecord.VERSION);

	private AssessmentRequests() {
	}

	static RecordKind.Submitted read(ObjectNode body, Instant now, FieldErrors errors) {
		JsonFields.rejectUnknown(body, FIELDS, errors);
		String userId = UserIds.fromBody(body, errors);
		JsonNode responses = body.get("responses");
		if (responses == null || responses.isNull()) {
			errors.add("responses", "is required: a non-empty JSON object");
		}
		else if (!responses.isObject() || responses.isEmpty()) {
			errors.add("responses", "must be a non-empty JSON object");
		}
		else {
			if (responses.size() > MAX_RESPONSES) {
				errors.add("responses",
						"must have at most " + MAX_RESPONSES + " keys at its top level (has " + responses.size() + ")");
			}
			JsonValues.checkStorable(responses, "responses", errors);
		}
		return new RecordKind.Submitted(userId, (responses instanceof ObjectNode object) ? object : null, null);
	}

}
