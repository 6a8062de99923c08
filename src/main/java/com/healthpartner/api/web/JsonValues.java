package com.healthpartner.api.web;

import java.math.BigDecimal;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Checks on JSON values the service stores as they were sent (PostgreSQL {@code jsonb}):
 * numbers must be finite 64-bit floats, as every partner's JSON library can read them
 * back, and text must be valid Unicode without NUL, which {@code jsonb} cannot hold.
 */
public final class JsonValues {

	private JsonValues() {
	}

	/**
	 * Whether a number is finite in double precision: {@code 1e309} overflows to
	 * infinity, {@code 1e-400} to a zero it is not.
	 */
	public static boolean isFinite(JsonNode number) {
		BigDecimal exact = number.decimalValue();
		double approximate = exact.doubleValue();
		return Double.isFinite(approximate) && (approximate != 0 || exact.signum() == 0);
	}

	/**
	 * Adds an error for every value under {@code path} that cannot be stored: a
	 * non-finite number or bad text (names included), with its path
	 * ({@code responses.items[2].score}).
	 */
	public static void checkStorable(JsonNode node, String path, FieldErrors errors) {
		if (node.isNumber()) {
			if (!isFinite(node)) {
				errors.add(path, "must be a finite number");
			}
		}
		else if (node.isString()) {
			if (!isStorableText(node.stringValue())) {
				errors.add(path, "must be valid Unicode text without the NUL character");
			}
		}
		else if (node.isArray()) {
			for (int i = 0; i < node.size(); i++) {
				checkStorable(node.get(i), path + "[" + i + "]", errors);
			}
		}
		else if (node.isObject()) {
			for (Map.Entry<String, JsonNode> property : node.properties()) {
				String child = path + "." + property.getKey();
				if (!isStorableText(property.getKey())) {
					errors.add(child, "must be a name of valid Unicode text without the NUL character");
				}
				checkStorable(property.getValue(), child, errors);
			}
		}
	}

	static boolean isStorableText(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == 0) {
				return false;
			}
			if (Character.isHighSurrogate(c)) {
				if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
					return false;
				}
				i++;
			}
			else if (Character.isLowSurrogate(c)) {
				return false;
			}
		}
		return true;
	}

}
