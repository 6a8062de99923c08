package com.healthpartner.api.text;

/**
 * A view that writes its own JSON: the health records, which every page, export line and
 * answer of a write holds, are written field by field instead of through a generic JSON
 * writer, as the same bytes a JSON writer would give (snake_case fields in declaration
 * order, stored JSON as it is).
 */
public interface JsonWritable {

	/** Appends this view as one JSON object. */
	void writeJson(StringBuilder out);

	/** This view as JSON text. */
	default String toJson() {
		StringBuilder out = new StringBuilder(256);
		writeJson(out);
		return out.toString();
	}

}
