package com.healthpartner.api.idempotency;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import tools.jackson.databind.JsonNode;

import com.healthpartner.api.crypto.Digests;

/**
 * A digest of a JSON value that ignores what JSON does not mean: key order, white space
 * and the spelling of numbers ({@code 72.5}, {@code 72.50} and {@code 7.25e1} are one
 * number). Two requests are the same request when their digests are equal.
 */
final class CanonicalJson {

	private CanonicalJson() {
	}

	static byte[] sha256(JsonNode node) {
		StringBuilder canonical = new StringBuilder(256);
		write(node, canonical);
		return Digests.sha256(canonical.toString());
	}

	// Strings are written with their length rather than escaped: unambiguous and simple.
	private static void write(JsonNode node, StringBuilder out) {
		if (node.isObject()) {
			List<String> names = new ArrayList<>(node.propertyNames());
			Collections.sort(names);
			out.append('{');
			for (String name : names) {
				text(name, out);
				write(node.get(name), out);
			}
			out.append('}');
		}
		else if (node.isArray()) {
			out.append('[');
			for (JsonNode element : node) {
				write(element, out);
			}
			out.append(']');
		}
		else if (node.isNumber()) {
			BigDecimal value = node.decimalValue();
			out.append('n').append(value.signum() == 0 ? "0" : value.stripTrailingZeros().toString()).append(';');
		}
		else if (node.isString()) {
			text(node.stringValue(), out);
		}
		else if (node.isBoolean()) {
			out.append(node.booleanValue() ? 't' : 'f');
		}
		else {
			out.append('z');
		}
	}

	private static void text(String value, StringBuilder out) {
		out.append('s').append(value.length()).append(':').append(value);
	}

}
