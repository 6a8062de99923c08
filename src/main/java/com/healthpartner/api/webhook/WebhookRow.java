package com.healthpartner.api.webhook;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.r2dbc.spi.Readable;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/**
 * An endpoint as stored, and as its partner sees it ({@link #writeJson}: never its
 * secret); {@code events} as listed, every event when it asked for all.
 */
record WebhookRow(UUID id, UUID partnerId, String url, List<String> events, String description, String status,
		String disabledReason, Instant createdAt, Instant updatedAt) implements JsonWritable {

	static final String COLUMNS = "id, partner_id, url, events, description, status, disabled_reason, created_at, updated_at";

	static WebhookRow of(Readable row, List<String> all) {
		String[] events = row.get("events", String[].class);
		return new WebhookRow(row.get("id", UUID.class), row.get("partner_id", UUID.class),
				row.get("url", String.class), (events != null) ? List.of(events) : all,
				row.get("description", String.class), row.get("status", String.class),
				row.get("disabled_reason", String.class), row.get("created_at", Instant.class),
				row.get("updated_at", Instant.class));
	}

	String path() {
		return WebhookRoutes.PATH + "/" + this.id;
	}

	@Override
	public void writeJson(StringBuilder out) {
		writeFields(out);
		out.append('}');
	}

	/** The view with the secret just made (when created or rotated). */
	String withSecret(String secret, Instant previousUntil) {
		StringBuilder out = new StringBuilder(512);
		writeFields(out);
		JsonText.quote(out.append(",\"secret\":"), secret);
		out.append(",\"previous_secret_expires_at\":");
		if (previousUntil != null) {
			Timestamps.append(out.append('"'), previousUntil).append('"');
		}
		else {
			out.append("null");
		}
		return out.append('}').toString();
	}

	private void writeFields(StringBuilder out) {
		out.append("{\"webhook_id\":\"").append(this.id).append("\",\"url\":");
		JsonText.quote(out, this.url).append(",\"events\":[");
		for (int i = 0; i < this.events.size(); i++) {
			JsonText.quote((i > 0) ? out.append(',') : out, this.events.get(i));
		}
		out.append("],\"description\":");
		if (this.description != null) {
			JsonText.quote(out, this.description);
		}
		else {
			out.append("null");
		}
		out.append(",\"status\":\"").append(this.status).append("\",\"disabled_reason\":");
		if (this.disabledReason != null) {
			JsonText.quote(out, this.disabledReason);
		}
		else {
			out.append("null");
		}
		Timestamps.append(out.append(",\"created_at\":\""), this.createdAt).append('"');
		Timestamps.append(out.append(",\"updated_at\":\""), this.updatedAt).append('"');
	}

}
