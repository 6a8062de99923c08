package com.healthpartner.api.web;

import java.time.Instant;

import org.springframework.core.env.Environment;

import com.healthpartner.api.text.JsonText;

/**
 * Writes an access log line as the Elastic Common Schema JSON object that Spring Boot's
 * structured logging writes for every other line of the {@code prod} profile: the same
 * fields in the same order ({@code @timestamp}, {@code log}, {@code process},
 * {@code service}, {@code message}, the line's own fields, {@code ecs}), built directly
 * from the fields instead of through a generic JSON writer. Its {@code message} is the
 * short summary ({@code GET /api/v1/health/metrics 200 in 3 ms}): the fields are the
 * line's own, so the message does not repeat them all (it did, and made up a fifth of
 * every line's bytes). One instance a writer: it keeps the text of the last second it
 * wrote.
 */
final class EcsLines {

	private static final String ECS_VERSION = "8.11";

	private static final int[] TENS = { 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000 };

	private final String process;

	private final String service;

	/** The second {@link #secondText} is the text of, as {@link #timestamp} writes it. */
	private long second = Long.MIN_VALUE;

	private String secondText;

	EcsLines(Environment environment) {
		this.process = ",\"process\":{\"pid\":" + ProcessHandle.current().pid() + ",\"thread\":{\"name\":";
		StringBuilder service = new StringBuilder(",\"service\":{");
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
		this.service = service.append(first ? "" : ",").append("\"node\":{}}").toString();
	}

	void append(StringBuilder line, AccessLog.Entry entry) {
		timestamp(line.append("{\"@timestamp\":\""), entry.at()).append("\",\"log\":{\"level\":\"INFO\",\"logger\":\"")
			.append(AccessLog.LOGGER)
			.append("\"}")
			.append(this.process);
		JsonText.quote(line, entry.thread());
		// the message, written into the line without being made a string first
		JsonText.escape(line.append("}}").append(this.service).append(",\"message\":\""), entry.method()).append(' ');
		JsonText.escape(line, entry.path())
			.append(' ')
			.append(entry.status())
			.append(" in ")
			.append(entry.durationMillis())
			.append(" ms\"");
		line.append(",\"request_id\":");
		JsonText.quote(line, entry.requestId());
		line.append(",\"method\":");
		JsonText.quote(line, entry.method());
		line.append(",\"route\":");
		JsonText.quote(line, entry.route());
		line.append(",\"path\":");
		JsonText.quote(line, entry.path());
		line.append(",\"status\":").append(entry.status()).append(",\"partner_id\":");
		JsonText.quote(line, entry.partnerId());
		line.append(",\"duration_ms\":")
			.append(entry.durationMillis())
			.append(",\"ecs\":{\"version\":\"")
			.append(ECS_VERSION)
			.append("\"}}\n");
	}

	/**
	 * Appends {@code at} as {@link Instant#toString} writes it (the fraction in groups of
	 * three digits, none when zero), the date and time of its second formatted once a
	 * second: formatting every line's instant cost a fifth of writing the line.
	 */
	StringBuilder timestamp(StringBuilder line, Instant at) {
		long second = at.getEpochSecond();
		if (second != this.second || this.secondText == null) {
			String text = Instant.ofEpochSecond(second).toString();
			this.secondText = text.substring(0, text.length() - 1);
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
		return line.append('Z');
	}

	private static void digits(StringBuilder line, int value, int width) {
		for (int divisor = TENS[width - 1]; divisor > 0; divisor /= 10) {
			line.append((char) ('0' + (value / divisor) % 10));
		}
	}

}
