package com.healthpartner.api.json;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link DateTimes} against what it replaced: the RFC 3339 pattern, then java.time's
 * strict {@code ISO_OFFSET_DATE_TIME}. Random date-times near the valid ones (every part
 * at and beyond its bounds, fractions of 0 to 10 digits, any offset, each character
 * sometimes swapped for another), and the edges by name.
 */
class DateTimesTest {

	private static final Pattern PATTERN = Pattern
		.compile("\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})");

	private static final String ALPHABET = "0123456789-:.+TtZz x\u0661";

	@Test
	void readsWhatThePatternAndTheStrictIsoFormatterRead() {
		SplittableRandom random = new SplittableRandom(7);
		int valid = 0;
		for (int i = 0; i < 300_000; i++) {
			String value = candidate(random);
			Instant expected = reference(value);
			assertThat(DateTimes.parse(value)).as(value).isEqualTo(expected);
			valid += (expected != null) ? 1 : 0;
		}
		// the candidates reach both sides
		assertThat(valid).isBetween(30_000, 270_000);
	}

	@Test
	void theEdges() {
		for (String value : new String[] { "2026-11-22T09:30:00Z", "2026-11-22t09:30:00z", "0000-01-01T00:00:00Z",
				"9999-12-31T23:59:59.999999999+18:00", "2024-02-29T00:00:00-18:00", "2023-02-29T00:00:00Z",
				"2026-11-22T24:00:00Z", "2026-11-22T23:59:60Z", "2026-11-22T09:30:00+18:01",
				"2026-11-22T09:30:00+19:00", "2026-11-22T09:30:00-00:00", "2026-11-22T09:30:00.Z",
				"2026-11-22T09:30:00.1234567891Z", "2026-11-22T09:30Z", "2026-11-22 09:30:00Z", "2026-11-22T09:30:00",
				"2026-11-22T09:30:00+0100", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z",
				"+2026-11-22T09:30:00Z", "2026-11-22T09:30:00Z ", "\u0662026-11-22T09:30:00Z", "" }) {
			assertThat(DateTimes.parse(value)).as(value).isEqualTo(reference(value));
		}
		assertThat(DateTimes.parse("2026-11-22T09:30:00.5+01:00")).isEqualTo(Instant.parse("2026-11-22T08:30:00.5Z"));
	}

	private static Instant reference(String value) {
		if (!PATTERN.matcher(value).matches()) {
			return null;
		}
		try {
			return OffsetDateTime.parse(value.toUpperCase(Locale.ROOT), DateTimeFormatter.ISO_OFFSET_DATE_TIME)
				.toInstant();
		}
		catch (DateTimeException ex) {
			return null;
		}
	}

	private static String candidate(SplittableRandom random) {
		StringBuilder value = new StringBuilder();
		value.append(String.format("%04d-%02d-%02d", random.nextInt(10_000), random.nextInt(15), random.nextInt(33)));
		value.append(random.nextInt(10) == 0 ? 't' : 'T');
		value.append(String.format("%02d:%02d:%02d", random.nextInt(26), random.nextInt(62), random.nextInt(62)));
		int fraction = random.nextInt(12);
		if (fraction > 0) {
			value.append('.');
			for (int i = 1; i < fraction; i++) {
				value.append((char) ('0' + random.nextInt(10)));
			}
		}
		int zone = random.nextInt(4);
		if (zone == 0) {
			value.append(random.nextBoolean() ? 'Z' : 'z');
		}
		else if (zone < 3) {
			value.append(random.nextBoolean() ? '+' : '-')
				.append(String.format("%02d:%02d", random.nextInt(20), random.nextInt(62)));
		}
		if (random.nextInt(4) == 0) {
			int at = random.nextInt(value.length() + 1);
			char other = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
			if (at == value.length() || random.nextBoolean()) {
				value.insert(at, other);
			}
			else {
				value.setCharAt(at, other);
			}
		}
		return value.toString();
	}

}
