package com.healthpartner.api.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.springframework.core.env.Environment;

import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.Utf8Bytes;

/**
 * Writes an access log line as the Elastic Common Schema JSON object that Spring Boot's
 * structured logging writes for every other line of the {@code prod} profile: the same
 * fields in the same order ({@code @timestamp}, {@code log}, {@code process},
 * {@code service}, {@code message}, the line's own fields, {@code ecs}), built directly
 * from the fields instead of through a generic JSON writer. Its {@code message} is the
 * short summary ({@code GET /api/v1/health/metrics 200 in 3 ms}): the fields are the
 * line's own, so the message does not repeat them all (it did, and made up a fifth of
 * every line's bytes). One instance a writer: it keeps the text of the last second it
 * wrote and the escaped text of the fields that repeat from line to line.
 */
final class EcsLines {

	private static final String ECS_VERSION = "8.11";

	/**
	 * How many texts of the few fields that repeat from line to line (thread, method,
	 * route, partner id) {@link #escaped} keeps before it starts again.
	 */
	private static final int KEPT = 1_024;

	/** How many of the strings looked up last are found again by identity. */
	private static final int RECENT = 8;

	private static final int[] TENS = { 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000 };

	private static final byte[] OPEN = ascii("{\"@timestamp\":\"");

	private static final byte[] IN = ascii(" in ");

	private static final byte[] REQUEST_ID = ascii(" ms\",\"request_id\":\"");

	private static final byte[] METHOD = ascii("\",\"method\":\"");

	private static final byte[] ROUTE = ascii("\",\"route\":\"");

	private static final byte[] PATH = ascii("\",\"path\":\"");

	private static final byte[] STATUS = ascii("\",\"status\":");

	private static final byte[] PARTNER_ID = ascii(",\"partner_id\":\"");

	private static final byte[] DURATION = ascii("\",\"duration_ms\":");

	private static final byte[] END = ascii(",\"ecs\":{\"version\":\"" + ECS_VERSION + "\"}}\n");

	/** The line's text up to its thread's name, after its timestamp. */
	private final byte[] afterTimestamp;

	/** From the end of the thread's name to the start of the message. */
	private final byte[] afterThread;

	/** The second {@link #secondText} is the text of, as {@link #timestamp} writes it. */
	private long second = Long.MIN_VALUE;

	private byte[] secondText;

	/**
	 * The escaped UTF-8 bytes of the thread names, methods, routes and partner ids
	 * written lately: a handful of values that fill most lines, escaped once instead of a
	 * character at a time on every line (escaping was 1.7-3.6 % of a refused request's
	 * CPU, docs/performance.md). Read and written by the one thread that writes the
	 * lines.
	 */
	private final Map<String, byte[]> escaped = new HashMap<>();

	/** The strings {@link #escaped} was asked for last, and their bytes. */
	private final String[] recent = new String[RECENT];

	private final byte[][] recentBytes = new byte[RECENT][];

	private int nextRecent;

	EcsLines(Environment environment) {
		StringBuilder service = new StringBuilder("\"}},\"service\":{");
		String name = environment.getProperty("logging.structured.ecs.service.name",
				environment.getProperty("spring.application.name", ""));
		String version = environment.getProperty("logging.structured.ecs.service.version",
				environment.getProperty("spring.application.version", ""));
		boolean first = true;
		if (!name.isEmpty()) {
			service.append("\"name\":");
			JsonText.quote(service, name);
			first = false;
		}
		if (!version.isEmpty()) {
			service.append(first ? "" : ",").append("\"version\":");
			JsonText.quote(service, version);
			first = false;
		}
		service.append(first ? "" : ",").append("\"node\":{}},\"message\":\"");
		this.afterTimestamp = ("Z\",\"log\":{\"level\":\"INFO\",\"logger\":\"" + AccessLog.LOGGER
				+ "\"},\"process\":{\"pid\":" + ProcessHandle.current().pid() + ",\"thread\":{\"name\":\"")
			.getBytes(StandardCharsets.UTF_8);
		this.afterThread = service.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Appends the line of {@code entry} as UTF-8, its fields written straight into the
	 * bytes: a line built in a {@code StringBuilder}, made a {@code String} and encoded
	 * went over every character three times, and building it was 8 % of a refused
	 * request's CPU (docs/performance.md).
	 */
	void append(Utf8Bytes line, AccessLog.Entry entry) {
		line.append(OPEN);
		timestamp(line, entry.at());
		line.append(this.afterTimestamp).append(escaped(entry.thread())).append(this.afterThread);
		// the message, written into the line without being made a string first
		byte[] method = escaped(entry.method());
		line.append(method).append(' ');
		int pathStart = line.length();
		line.appendEscaped(entry.path());
		int pathEnd = line.length();
		line.append(' ')
			.appendDecimal(entry.status())
			.append(IN)
			.appendDecimal(entry.durationMillis())
			.append(REQUEST_ID)
			.appendEscaped(entry.requestId())
			.append(METHOD)
			.append(method)
			.append(ROUTE)
			.append(escaped(entry.route()))
			.append(PATH)
			.appendAgain(pathStart, pathEnd)
			.append(STATUS)
			.appendDecimal(entry.status())
			.append(PARTNER_ID)
			.append(escaped(entry.partnerId()))
			.append(DURATION)
			.appendDecimal(entry.durationMillis())
			.append(END);
	}

	/**
	 * The escaped UTF-8 bytes of {@code value}, a field that repeats from line to line:
	 * found first by identity among the last few looked up (the same strings come back:
	 * thread names, constants, a partner's cached id), which costs less than hashing.
	 */
	private byte[] escaped(String value) {
		String[] recent = this.recent;
		for (int i = 0; i < RECENT; i++) {
			if (recent[i] == value) {
				return this.recentBytes[i];
			}
		}
		byte[] bytes = this.escaped.get(value);
		if (bytes == null) {
			if (this.escaped.size() == KEPT) {
				// a client that sends ever new methods does not grow the map without end
				this.escaped.clear();
			}
			Utf8Bytes text = new Utf8Bytes(value.length()).appendEscaped(value);
			bytes = Arrays.copyOf(text.array(), text.length());
			this.escaped.put(value, bytes);
		}
		recent[this.nextRecent] = value;
		this.recentBytes[this.nextRecent] = bytes;
		this.nextRecent = (this.nextRecent + 1) % RECENT;
		return bytes;
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * Appends {@code at} as {@link Instant#toString} writes it but for its closing
	 * {@code Z} (the fraction in groups of three digits, none when zero), the date and
	 * time of its second formatted once a second: formatting every line's instant cost a
	 * fifth of writing the line.
	 */
	void timestamp(Utf8Bytes line, Instant at) {
		long second = at.getEpochSecond();
		if (second != this.second || this.secondText == null) {
			String text = Instant.ofEpochSecond(second).toString();
			this.secondText = ascii(text.substring(0, text.length() - 1));
			this.second = second;
		}
		line.append(this.secondText);
		int nano = at.getNano();
		if (nano != 0) {
			line.append('.');
			if (nano % 1_000_000 == 0) {
				digits(line, nano / 1_000_000, 3);
			}
			else if (nano % 1_000 == 0) {
				digits(line, nano / 1_000, 6);
			}
			else {
				digits(line, nano, 9);
			}
		}
	}

	private static void digits(Utf8Bytes line, int value, int width) {
		for (int divisor = TENS[width - 1]; divisor > 0; divisor /= 10) {
			line.append((char) ('0' + (value / divisor) % 10));
		}
	}

}
