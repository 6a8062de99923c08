package com.healthpartner.api.web;

import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Record ids in paths. Only the canonical UUID form names a record: anything else is a
 * 404 like an id that does not exist ({@code UUID.fromString} would accept
 * {@code 1-1-1-1-1}).
 */
public final class RecordIds {

	private static final Pattern CANONICAL = Pattern
		.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

	private RecordIds() {
	}

	/** The id, or a 404 naming what was not found. */
	public static UUID parse(String value, String what) {
		if (!CANONICAL.matcher(value).matches()) {
			throw notFound(what, value);
		}
		return UUID.fromString(value);
	}

	public static ApiException notFound(String what, Object id) {
		String shown = String.valueOf(id);
		return ApiException.notFound("No " + what + " " + ((shown.length() > 64) ? shown.substring(0, 64) + "…" : shown)
				+ " exists for this partner");
	}

}
