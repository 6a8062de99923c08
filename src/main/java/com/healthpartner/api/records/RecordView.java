package com.healthpartner.api.records;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/**
 * A record as partners see it, written straight from its row: the content as the JSON
 * text the database returned, so no record is parsed on its way out, and each time
 * appended in place. Field for field what the kind's SQL view function (V31) stores for
 * lists and the feed.
 */
record RecordView(RecordKind kind, RecordRow row) implements JsonWritable {

	@Override
	public void writeJson(StringBuilder out) {
		RecordRow row = this.row;
		out.append("{\"id\":\"").append(row.id()).append("\",\"user_id\":");
		JsonText.quote(out, row.userId()).append(",\"client_record_id\":");
		if (row.clientRecordId() != null) {
			JsonText.quote(out, row.clientRecordId());
		}
		else {
			out.append("null");
		}
		out.append(",\"client_record_version\":").append(row.clientRecordVersion());
		out.append(",\"").append(this.kind.content()).append("\":").append(row.content());
		if (this.kind.dated()) {
			out.append(",\"recorded_at\":\"");
			Timestamps.append(out, row.recordedAt()).append('"');
		}
		out.append(",\"created_at\":\"");
		Timestamps.append(out, row.createdAt()).append("\",\"updated_at\":\"");
		Timestamps.append(out, row.updatedAt()).append("\"}");
	}

}
