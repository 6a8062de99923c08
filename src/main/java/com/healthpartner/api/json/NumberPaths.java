package com.healthpartner.api.json;

import java.math.BigDecimal;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * Finds the number a body could not be read for (an exponent beyond what a decimal can
 * hold, such as {@code 1e-2147483648}), to name it in the refusal. Runs only after such a
 * failure: the body is read once more, token by token, without making numbers of them.
 */
final class NumberPaths {

	private NumberPaths() {
	}

	/** The path of the first number that cannot be read, or {@code body}. */
	static String unreadable(JsonMapper mapper, byte[] body) {
		try (JsonParser parser = mapper.createParser(body)) {
			for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
				if (token.isNumeric() && !readable(parser.getString())) {
					return path(parser.streamReadContext());
				}
			}
		}
		catch (JacksonException ex) {
			// the first reading failed on a number before anything else
		}
		return "body";
	}

	private static boolean readable(String number) {
		try {
			new BigDecimal(number);
			return true;
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	/** {@code responses.items[2].score}, as the other field errors name paths. */
	static String path(TokenStreamContext context) {
		if (context == null || context.inRoot()) {
			return "body";
		}
		StringBuilder path = new StringBuilder();
		append(path, context);
		return (path.length() > 0) ? path.toString() : "body";
	}

	private static void append(StringBuilder path, TokenStreamContext context) {
		if (context == null || context.inRoot()) {
			return;
		}
		append(path, context.getParent());
		if (context.inArray()) {
			path.append('[').append(Math.max(0, context.getCurrentIndex())).append(']');
		}
		else if (context.currentName() != null) {
			if (path.length() > 0) {
				path.append('.');
			}
			path.append(context.currentName());
		}
	}

}
