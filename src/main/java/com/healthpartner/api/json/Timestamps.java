package com.healthpartner.api.json;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * RFC 3339 in UTC with a Z and exactly three fraction digits, as every response shows
 * time.
 */
public final class Timestamps {

	private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	private Timestamps() {
	}

	public static String format(Instant instant) {
		return (instant != null) ? FORMAT.format(instant) : null;
	}

	public static Instant truncate(Instant instant) {
		return instant.truncatedTo(ChronoUnit.MILLIS);
	}

}
