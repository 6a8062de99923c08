package com.healthpartner.api.metric;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import com.healthpartner.api.json.DateRange;
import com.healthpartner.api.json.JsonFields;
import com.healthpartner.api.json.JsonValues;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.json.UserIds;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.records.ClientRecord;
import com.healthpartner.api.records.RecordKind;

/**
 * Reads and checks the body of {@code POST /api/v1/health/metrics}, collecting every bad
 * field with its path ({@code metrics.weight}).
 */
final class MetricRequests {

	static final int MAX_METRICS = 64;

	static final Duration MAX_AHEAD = Duration.ofMinutes(5);

	private static final Set<String> FIELDS = Set.of("user_id", "metrics", "recorded_at", ClientRecord.ID,
			ClientRecord.VERSION);

	private static final int MAX_NAME = 64;

	private MetricRequests() {
	}

	/** The checked request; {@code now} is when the service received it. */
	static RecordKind.Submitted read(ObjectNode body, Instant now, FieldErrors errors) {
		JsonFields.rejectUnknown(body, FIELDS, errors);
		String userId = UserIds.fromBody(body, errors);
		ObjectNode metrics = metrics(body.get("metrics"), errors);
		Instant recordedAt = recordedAt(body.get("recorded_at"), now, errors);
		return new RecordKind.Submitted(userId, metrics, recordedAt);
	}

	private static ObjectNode metrics(JsonNode node, FieldErrors errors) {
		if (node == null || node.isNull()) {
			errors.add("metrics", "is required: an object of 1 to " + MAX_METRICS + " metrics");
			return null;
		}
		if (!node.isObject() || node.isEmpty()) {
			errors.add("metrics", "must be an object of 1 to " + MAX_METRICS + " metrics");
			return null;
		}
		if (node.size() > MAX_METRICS) {
			errors.add("metrics", "must have at most " + MAX_METRICS + " metrics (has " + node.size() + ")");
		}
		for (Map.Entry<String, JsonNode> metric : node.properties()) {
			check(metric.getKey(), metric.getValue(), errors);
		}
		return (ObjectNode) node;
	}

	private static void check(String name, JsonNode value, FieldErrors errors) {
		if (!isName(name)) {
			errors.add(field(name), "is not a metric name: 1 to 64 of a-z, 0-9 and _, starting with a letter");
			return;
		}
		if (!value.isNumber()) {
			errors.add(field(name), "must be a finite number");
			return;
		}
		Optional<String> problem = JsonValues.numberProblem(value);
		if (problem.isPresent()) {
			errors.add(field(name), problem.get());
			return;
		}
		MetricCatalog.of(name)
			.flatMap((known) -> known.check(value.decimalValue()))
			.ifPresent((rule) -> errors.add(field(name), rule));
	}

	/** The path of a metric in an error, its name cut at 80 characters. */
	private static String field(String name) {
		return "metrics." + ((name.length() > 80) ? name.substring(0, 80) + "…" : name);
	}

	/**
	 * Whether {@code name} is 1 to 64 of a-z, 0-9 and _, starting with a letter (a loop,
	 * as for identifiers: the regular expression cost more than the rest of the check).
	 */
	private static boolean isName(String name) {
		int length = name.length();
		if (length < 1 || length > MAX_NAME || name.charAt(0) < 'a' || name.charAt(0) > 'z') {
			return false;
		}
		for (int i = 1; i < length; i++) {
			char c = name.charAt(i);
			if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
				return false;
			}
		}
		return true;
	}

	private static Instant recordedAt(JsonNode node, Instant now, FieldErrors errors) {
		if (node == null || node.isNull()) {
			return Timestamps.truncate(now);
		}
		Instant at = node.isString() ? DateRange.parseDateTime(node.stringValue()).orElse(null) : null;
		if (at == null) {
			errors.add("recorded_at", "must be an RFC 3339 date-time with offset (2026-11-22T09:30:00Z)");
			return null;
		}
		if (at.isAfter(now.plus(MAX_AHEAD))) {
			errors.add("recorded_at", "must not be more than 5 minutes in the future");
			return null;
		}
		return Timestamps.truncate(at);
	}

}
