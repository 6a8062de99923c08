package com.healthpartner.api.imports;

import java.time.Instant;
import java.util.UUID;

import io.r2dbc.spi.Readable;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/** An import as stored, and as partners see it ({@link #writeJson}). */
record ImportRow(UUID id, String resource, String status, long lines, long processed, long created, long updated,
		long unchanged, long failed, String detail, Instant createdAt, Instant completedAt) implements JsonWritable {

	static ImportRow of(Readable row) {
		return new ImportRow(row.get("id", UUID.class), row.get("resource", String.class),
				row.get("status", String.class), row.get("lines", Long.class), row.get("processed", Long.class),
				row.get("created", Long.class), row.get("updated", Long.class), row.get("unchanged", Long.class),
				row.get("failed", Long.class), row.get("detail", String.class), row.get("created_at", Instant.class),
				row.get("completed_at", Instant.class));
	}

	/** The path of the import. */
	String path() {
		return ImportRoutes.PATH + "/" + this.id;
	}

	@Override
	public void writeJson(StringBuilder out) {
		out.append("{\"import_id\":\"").append(this.id).append("\",\"kind\":\"").append(this.resource);
		// receiving is an instant of the POST only: a partner sees an import once stored
		out.append("\",\"status\":\"").append("receiving".equals(this.status) ? "processing" : this.status);
		out.append("\",\"lines\":").append(this.lines).append(",\"processed\":").append(this.processed);
		out.append(",\"created\":").append(this.created).append(",\"updated\":").append(this.updated);
		out.append(",\"unchanged\":").append(this.unchanged).append(",\"failed\":").append(this.failed);
		out.append(",\"detail\":");
		if (this.detail != null) {
			JsonText.quote(out, this.detail);
		}
		else {
			out.append("null");
		}
		out.append(",\"created_at\":\"");
		Timestamps.append(out, this.createdAt).append("\",\"completed_at\":");
		if (this.completedAt != null) {
			Timestamps.append(out.append('"'), this.completedAt).append('"');
		}
		else {
			out.append("null");
		}
		out.append('}');
	}

}
