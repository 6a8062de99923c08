package com.healthpartner.api.json;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Pattern;

import org.springframework.web.reactive.function.server.ServerRequest;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.ProblemType;

/**
 * The {@code start_date} and {@code end_date} filters of a list, both inclusive: an ISO
 * 8601 date (a start means 00:00:00Z of that day, an end the whole of that day, UTC) or a
 * date-time with offset. Kept as {@code [from, until)} on millisecond boundaries, as
 * stored times are truncated to milliseconds.
 */
public record DateRange(Instant from, Instant until, boolean reversed) {

	public static final String START = "start_date";

	public static final String END = "end_date";

	/** No filter: every time. */
	public static final DateRange ANY = new DateRange(null, null, false);

	private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

	/** Both parameters of a request; a bad one is added to {@code errors}. */
	public static DateRange of(ServerRequest request, FieldErrors errors) {
		return of(request, START, END, errors);
	}

	/** The same rules for a pair of parameters with other names. */
	public static DateRange of(ServerRequest request, String startName, String endName, FieldErrors errors) {
		Instant start = request.queryParam(startName)
			.flatMap((value) -> bound(value, false, startName, errors))
			.orElse(null);
		Instant end = request.queryParam(endName).flatMap((value) -> bound(value, true, endName, errors)).orElse(null);
		Instant from = (start != null) ? ceilMillis(start) : null;
		Instant until = (end != null) ? end.truncatedTo(ChronoUnit.MILLIS).plusMillis(1) : null;
		return new DateRange(from, until, start != null && end != null && start.isAfter(end));
	}

	/**
	 * Refuses a range whose start is after its end (after field errors were reported).
	 */
	public DateRange requireOrdered() {
		if (this.reversed) {
			throw new ApiException(ProblemType.INVALID_DATE_RANGE,
					"start_date is after end_date; both ends are inclusive, so they may be equal");
		}
		return this;
	}

	/** The range as text, to bind a cursor to these filters. */
	public String key() {
		return this.from + ".." + this.until;
	}

	/**
	 * An RFC 3339 date-time with offset ({@code recorded_at}), {@code T} and {@code Z} in
	 * either case; empty when it is not one.
	 */
	public static Optional<Instant> parseDateTime(String value) {
		return Optional.ofNullable(DateTimes.parse(value));
	}

	private static Optional<Instant> bound(String value, boolean end, String name, FieldErrors errors) {
		if (DATE.matcher(value).matches()) {
			try {
				// the pattern let through only ASCII digits at these places
				LocalDate date = LocalDate.of(Integer.parseInt(value, 0, 4, 10), Integer.parseInt(value, 5, 7, 10),
						Integer.parseInt(value, 8, 10, 10));
				Instant startOfDay = date.atStartOfDay(ZoneOffset.UTC).toInstant();
				return Optional.of(end ? startOfDay.plus(1, ChronoUnit.DAYS).minusNanos(1) : startOfDay);
			}
			catch (DateTimeException ex) {
				// reported below
			}
		}
		Optional<Instant> instant = parseDateTime(plusRestored(value));
		if (instant.isEmpty()) {
			errors.add(name, "must be a date (2026-11-01) or a date-time with offset (2026-11-01T08:00:00+01:00)");
		}
		return instant;
	}

	/**
	 * A {@code +} of an offset sent unencoded in a query string arrives as a space; it
	 * can only have been a plus.
	 */
	private static String plusRestored(String value) {
		int length = value.length();
		if (length > 6 && value.charAt(length - 6) == ' ') {
			return value.substring(0, length - 6) + "+" + value.substring(length - 5);
		}
		return value;
	}

	private static Instant ceilMillis(Instant instant) {
		Instant truncated = instant.truncatedTo(ChronoUnit.MILLIS);
		return truncated.equals(instant) ? instant : truncated.plusMillis(1);
	}

}
