package com.healthpartner.api.json;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import com.healthpartner.api.problem.ApiException;

/**
 * Ids in paths and parameters (records, partners, keys). Only the canonical UUID form
 * names something: anything else is answered like an id that does not exist
 * ({@code UUID.fromString} alone would accept {@code 1-1-1-1-1}). The one parser of ids.
 */
public final class RecordIds {

	private static final Pattern CANONICAL = Pattern
		.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

	private RecordIds() {
	}

	/** The id of a health record in a path, or a 404 naming what was not found. */
	public static UUID parse(String value, String what) {
		return parse(value).orElseThrow(() -> notFound(what, value));
	}

	/** The id, when the text is a UUID in canonical form. */
	public static Optional<UUID> parse(String value) {
		return CANONICAL.matcher(value).matches() ? Optional.of(UUID.fromString(value)) : Optional.empty();
	}

	public static ApiException notFound(String what, Object id) {
		String shown = String.valueOf(id);
		return ApiException.notFound("No " + what + " " + ((shown.length() > 64) ? shown.substring(0, 64) + "…" : shown)
				+ " exists for this partner");
	}

}
