package com.healthpartner.api.text;

import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Writes JSON text by hand where a generic writer costs more than the text itself: a
 * string with the escapes RFC 8259 requires (short forms where JSON has one,
 * {@code \\u00xx} in lower case for the other control characters, as PostgreSQL writes
 * them; Jackson writes upper case), and a parsed tree as Jackson's
 * {@code writeValueAsString} writes it but for that case.
 */
public final class JsonText {

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private JsonText() {
	}

	/** Appends {@code value} as a JSON string, quotes included. */
	public static StringBuilder quote(StringBuilder out, String value) {
		return escape(out.append('"'), value).append('"');
	}

	/**
	 * Appends {@code value} as the inside of a JSON string, without its quotes: for a
	 * string made of several values, written without joining them first.
	 */
	public static StringBuilder escape(StringBuilder out, String value) {
		int length = value.length();
		int plain = 0;
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (c >= 0x20 && c != '"' && c != '\\') {
				continue;
			}
			out.append(value, plain, i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				case '\b' -> out.append("\\b");
				case '\f' -> out.append("\\f");
				default -> out.append("\\u00").append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
			}
			plain = i + 1;
		}
		return out.append(value, plain, length);
	}

	/**
	 * Appends the tree {@code node} as compact JSON, as {@code writeValueAsString} would
	 * (numbers as their {@code toString()}; a tree from a parsed body holds no other
	 * kinds of node): an item of a batch costs a serializer context and a generator
	 * otherwise.
	 */
	public static StringBuilder write(StringBuilder out, JsonNode node) {
		if (node.isObject()) {
			out.append('{');
			boolean first = true;
			for (Map.Entry<String, JsonNode> property : node.properties()) {
				if (!first) {
					out.append(',');
				}
				first = false;
				quote(out, property.getKey()).append(':');
				write(out, property.getValue());
			}
			return out.append('}');
		}
		if (node.isArray()) {
			out.append('[');
			for (int i = 0; i < node.size(); i++) {
				if (i > 0) {
					out.append(',');
				}
				write(out, node.get(i));
			}
			return out.append(']');
		}
		if (node.isString()) {
			return quote(out, node.stringValue());
		}
		if (node.isNumber()) {
			return out.append(node.numberValue());
		}
		if (node.isBoolean()) {
			return out.append(node.booleanValue());
		}
		if (node.isNull()) {
			return out.append("null");
		}
		throw new IllegalArgumentException("not a JSON tree of a parsed body: " + node.getNodeType());
	}

}
