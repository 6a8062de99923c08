package com.healthpartner.api.text;

/**
 * Writes JSON text by hand where a generic writer costs more than the text itself: a
 * string with the escapes RFC 8259 requires, written as Jackson writes them (short forms
 * where JSON has one, {@code \\u00XX} for the other control characters).
 */
public final class JsonText {

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private JsonText() {
	}

	/** Appends {@code value} as a JSON string, quotes included. */
	public static StringBuilder quote(StringBuilder out, String value) {
		out.append('"');
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
		return out.append(value, plain, length).append('"');
	}

}
