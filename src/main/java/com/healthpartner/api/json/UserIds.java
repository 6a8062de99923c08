package com.healthpartner.api.json;

import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.web.reactive.function.server.ServerRequest;

import com.healthpartner.api.problem.FieldErrors;

/**
 * The rule for {@code user_id} (docs/api.md, Health data), the partner's own identifier
 * of its user: the same in bodies and in query parameters. Not trimmed: an identifier is
 * taken as sent.
 */
public final class UserIds {

	public static final String FIELD = "user_id";

	private UserIds() {
	}

	/** The {@code user_id} of a body, or null with an error. */
	public static String fromBody(ObjectNode body, FieldErrors errors) {
		JsonNode node = body.get(FIELD);
		if (node == null || node.isNull()) {
			errors.add(FIELD, "is required");
			return null;
		}
		if (!node.isString()) {
			errors.add(FIELD, "must be a string");
			return null;
		}
		return check(node.stringValue(), errors);
	}

	/** The {@code user_id} query parameter, or null with an error. */
	public static String fromQuery(ServerRequest request, FieldErrors errors) {
		Optional<String> value = request.queryParam(FIELD);
		if (value.isEmpty()) {
			errors.add(FIELD, "is required");
			return null;
		}
		return check(value.get(), errors);
	}

	/** A {@code user_id} in a path, or null with an error. */
	public static String fromPath(String value, FieldErrors errors) {
		return check(value, errors);
	}

	private static String check(String value, FieldErrors errors) {
		if (!Identifiers.wellFormed(value)) {
			errors.add(FIELD, "must be " + Identifiers.RULE);
			return null;
		}
		return value;
	}

}
