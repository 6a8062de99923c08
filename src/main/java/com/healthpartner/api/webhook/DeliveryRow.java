package com.healthpartner.api.webhook;

import java.time.Instant;
import java.util.UUID;

import io.r2dbc.spi.Readable;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/** One delivery of the log, as its partner sees it. */
record DeliveryRow(UUID id, String messageId, String eventType, String changeId, String status, int attempts,
		Instant lastAttemptAt, Integer lastStatusCode, String lastError, Instant nextAttemptAt,
		Instant createdAt) implements JsonWritable {

	static final String COLUMNS = "id, message_id, event_type, case when change_seq > 0 then change_txid::text || '.' || change_seq end as change_id, "
			+ "status, attempts, last_attempt_at, last_status_code, last_error, next_attempt_at, created_at";

	static DeliveryRow of(Readable row) {
		return new DeliveryRow(row.get("id", UUID.class), row.get("message_id", String.class),
				row.get("event_type", String.class), row.get("change_id", String.class),
				row.get("status", String.class), row.get("attempts", Integer.class),
				row.get("last_attempt_at", Instant.class), row.get("last_status_code", Integer.class),
				row.get("last_error", String.class), row.get("next_attempt_at", Instant.class),
				row.get("created_at", Instant.class));
	}

	@Override
	public void writeJson(StringBuilder out) {
		out.append("{\"delivery_id\":\"").append(this.id).append("\",\"webhook_message_id\":");
		JsonText.quote(out, this.messageId).append(",\"event_type\":\"").append(this.eventType);
		out.append("\",\"change_id\":");
		quoteOrNull(out, this.changeId);
		out.append(",\"status\":\"").append(this.status).append("\",\"attempts\":").append(this.attempts);
		out.append(",\"last_attempt_at\":");
		time(out, this.lastAttemptAt);
		out.append(",\"last_status_code\":").append((this.lastStatusCode != null) ? this.lastStatusCode : "null");
		out.append(",\"last_error\":");
		quoteOrNull(out, this.lastError);
		out.append(",\"next_attempt_at\":");
		time(out, this.nextAttemptAt);
		out.append(",\"created_at\":");
		time(out, this.createdAt);
		out.append('}');
	}

	private static void quoteOrNull(StringBuilder out, String value) {
		if (value != null) {
			JsonText.quote(out, value);
		}
		else {
			out.append("null");
		}
	}

	private static void time(StringBuilder out, Instant at) {
		if (at != null) {
			Timestamps.append(out.append('"'), at).append('"');
		}
		else {
			out.append("null");
		}
	}

}
