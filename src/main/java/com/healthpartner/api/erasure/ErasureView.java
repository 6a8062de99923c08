package com.healthpartner.api.erasure;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/** An erasure as partners see it: its progress and what it has deleted so far. */
record ErasureView(ErasureRow row) implements JsonWritable {

	@Override
	public void writeJson(StringBuilder out) {
		out.append("{\"erasure_id\":\"").append(this.row.id()).append("\",\"user_id\":");
		JsonText.quote(out, this.row.userId()).append(",\"status\":\"").append(this.row.status());
		out.append("\",\"requested_at\":\"");
		Timestamps.append(out, this.row.requestedAt()).append("\",\"completed_at\":");
		if (this.row.completedAt() != null) {
			Timestamps.append(out.append('"'), this.row.completedAt()).append('"');
		}
		else {
			out.append("null");
		}
		for (ErasureRow.Deleted deleted : this.row.deleted()) {
			out.append(",\"").append(deleted.counter()).append("\":").append(deleted.count());
		}
		out.append('}');
	}

}
