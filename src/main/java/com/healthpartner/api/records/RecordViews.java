package com.healthpartner.api.records;

import java.util.UUID;

import com.healthpartner.api.text.JsonText;

/**
 * What the views of both kinds of health record begin with, written field by field (the
 * feed's stored copies, V31's {@code metric_view} and {@code assessment_view}, write the
 * same).
 */
public final class RecordViews {

	private RecordViews() {
	}

	/**
	 * Appends the opening brace and the fields every record shows first: {@code id},
	 * {@code user_id}, {@code client_record_id}, {@code client_record_version}.
	 */
	public static StringBuilder head(StringBuilder out, UUID id, String userId, String clientRecordId,
			Long clientRecordVersion) {
		out.append("{\"id\":\"").append(id).append("\",\"user_id\":");
		JsonText.quote(out, userId).append(",\"client_record_id\":");
		if (clientRecordId != null) {
			JsonText.quote(out, clientRecordId);
		}
		else {
			out.append("null");
		}
		return out.append(",\"client_record_version\":").append(clientRecordVersion);
	}

}
