package com.healthpartner.api.json;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * RFC 3339 in UTC with a Z and exactly three fraction digits, as every response shows
 * time ({@code 2026-11-22T09:30:00.123Z}). Years 0000 to 9999 are written digit by digit
 * from the epoch milliseconds (a page of records writes two of these per record); others,
 * which no record holds, by the formatter of {@code java.time}.
 */
public final class Timestamps {

	private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	private static final long MILLIS_PER_DAY = 86_400_000L;

	/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in epoch milliseconds. */
	private static final long FIRST = -62_167_219_200_000L;

	private static final long END = 253_402_300_800_000L;

	private Timestamps() {
	}

	public static String format(Instant instant) {
		if (instant == null) {
			return null;
		}
		char[] text = new char[24];
		return write(instant, text) ? new String(text) : FORMAT.format(instant);
	}

	/** Appends the instant as {@link #format} writes it. */
	public static StringBuilder append(StringBuilder out, Instant instant) {
		char[] text = new char[24];
		return write(instant, text) ? out.append(text) : out.append(FORMAT.format(instant));
	}

	public static Instant truncate(Instant instant) {
		return instant.truncatedTo(ChronoUnit.MILLIS);
	}

	private static boolean write(Instant instant, char[] text) {
		long epochSecond = instant.getEpochSecond();
		if (epochSecond < FIRST / 1000 || epochSecond >= END / 1000) {
			return false;
		}
		long millis = epochSecond * 1000 + instant.getNano() / 1_000_000;
		long days = Math.floorDiv(millis, MILLIS_PER_DAY);
		int ofDay = (int) Math.floorMod(millis, MILLIS_PER_DAY);
		// civil date of a day count (H. Hinnant's days_from_civil, inverted)
		long z = days + 719_468;
		long era = Math.floorDiv(z, 146_097);
		long dayOfEra = z - era * 146_097;
		long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
		long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
		long monthIndex = (5 * dayOfYear + 2) / 153;
		int day = (int) (dayOfYear - (153 * monthIndex + 2) / 5 + 1);
		int month = (int) ((monthIndex < 10) ? monthIndex + 3 : monthIndex - 9);
		int year = (int) (yearOfEra + era * 400 + ((month <= 2) ? 1 : 0));
		digits(text, 0, year, 4);
		text[4] = '-';
		digits(text, 5, month, 2);
		text[7] = '-';
		digits(text, 8, day, 2);
		text[10] = 'T';
		digits(text, 11, ofDay / 3_600_000, 2);
		text[13] = ':';
		digits(text, 14, (ofDay / 60_000) % 60, 2);
		text[16] = ':';
		digits(text, 17, (ofDay / 1000) % 60, 2);
		text[19] = '.';
		digits(text, 20, ofDay % 1000, 3);
		text[23] = 'Z';
		return true;
	}

	private static void digits(char[] text, int at, int value, int width) {
		for (int i = at + width - 1; i >= at; i--) {
			text[i] = (char) ('0' + value % 10);
			value /= 10;
		}
	}

}
