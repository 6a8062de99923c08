package com.healthpartner.api.changes;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;

/**
 * A change as the feed shows it, written field by field; the record of a {@code created}
 * or {@code updated} change is written by its resource's view.
 */
final class ChangeView {

	private ChangeView() {
	}

	static void write(StringBuilder out, ChangeRow change, ChangedRecords records) {
		out.append("{\"change_id\":\"").append(change.txid()).append('.').append(change.seq());
		out.append("\",\"kind\":\"").append(change.kind()).append("\",\"resource\":");
		nullable(out, change.resource()).append(",\"id\":");
		if (change.recordId() != null) {
			out.append('"').append(change.recordId()).append('"');
		}
		else {
			out.append("null");
		}
		out.append(",\"user_id\":");
		JsonText.quote(out, change.userId()).append(",\"client_record_id\":");
		nullable(out, change.clientRecordId()).append(",\"changed_at\":\"");
		Timestamps.append(out, change.changedAt()).append("\",\"record\":");
		if (records != null && change.data() != null) {
			records.writeRecord(out, change);
		}
		else {
			out.append("null");
		}
		out.append('}');
	}

	private static StringBuilder nullable(StringBuilder out, String value) {
		return (value != null) ? JsonText.quote(out, value) : out.append("null");
	}

}
