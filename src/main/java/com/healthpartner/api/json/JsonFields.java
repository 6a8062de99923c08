package com.healthpartner.api.json;

import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import com.healthpartner.api.problem.FieldErrors;

/**
 * Small readers of request fields that add to {@link FieldErrors} instead of failing at
 * the first bad field.
 */
public final class JsonFields {

	private JsonFields() {
	}

	/** Adds an error for each top-level field the request may not have. */
	public static void rejectUnknown(ObjectNode body, Set<String> allowed, FieldErrors errors) {
		for (String name : body.propertyNames()) {
			if (!allowed.contains(name)) {
				errors.add(name, "is not a known field");
			}
		}
	}

	/**
	 * A required string, trimmed, of {@code min..max} characters; null (with an error)
	 * otherwise.
	 */
	public static String requiredText(ObjectNode body, String name, int min, int max, FieldErrors errors) {
		JsonNode node = body.get(name);
		if (node == null || node.isNull()) {
			errors.add(name, "is required");
			return null;
		}
		return text(node, name, min, max, errors);
	}

	/** An optional string: null when absent or JSON null. */
	public static String optionalText(ObjectNode body, String name, int min, int max, FieldErrors errors) {
		JsonNode node = body.get(name);
		if (node == null || node.isNull()) {
			return null;
		}
		return text(node, name, min, max, errors);
	}

	private static String text(JsonNode node, String name, int min, int max, FieldErrors errors) {
		if (!node.isString()) {
			errors.add(name, "must be a string");
			return null;
		}
		String value = node.stringValue().trim();
		if (value.length() < min || value.length() > max) {
			errors.add(name, (min <= 1) ? "must be 1 to " + max + " characters long (after trimming)"
					: "must be " + min + " to " + max + " characters long");
			return null;
		}
		return value;
	}

}
