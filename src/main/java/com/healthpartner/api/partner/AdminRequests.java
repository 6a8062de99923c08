package com.healthpartner.api.partner;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.json.JsonFields;
import com.healthpartner.api.json.RecordIds;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.ratelimit.Plans;

/**
 * Field readers shared by the administrator's requests.
 */
final class AdminRequests {

	private AdminRequests() {
	}

	static UUID id(String value, String what) {
		return RecordIds.parse(value).orElseThrow(() -> ApiException.notFound("No " + what + " " + value));
	}

	/** The {@code plan} field when present: the name of a configured plan. */
	static String plan(ObjectNode body, Plans plans, FieldErrors errors) {
		String plan = JsonFields.optionalText(body, "plan", 1, 32, errors);
		if (plan != null && !plans.exists(plan)) {
			errors.add("plan", "must be one of " + plans.names());
			return null;
		}
		return plan;
	}

	/** The scopes field when present: a non-empty array of known scope names. */
	static Optional<Set<Scope>> scopes(ObjectNode body, FieldErrors errors) {
		JsonNode node = body.get("scopes");
		if (node == null) {
			return Optional.empty();
		}
		if (!node.isArray() || node.isEmpty()) {
			errors.add("scopes", "must be a non-empty array of " + Scope.values(Scope.all()));
			return Optional.empty();
		}
		Set<Scope> scopes = EnumSet.noneOf(Scope.class);
		for (int i = 0; i < node.size(); i++) {
			JsonNode item = node.get(i);
			Optional<Scope> scope = item.isString() ? Scope.of(item.stringValue()) : Optional.empty();
			if (scope.isEmpty()) {
				errors.add("scopes[" + i + "]", "must be one of " + Scope.values(Scope.all()));
			}
			else {
				scope.ifPresent(scopes::add);
			}
		}
		return Optional.of(scopes);
	}

	/** An optional future instant with an offset ({@code expires_at}). */
	static Instant futureInstant(ObjectNode body, String name, Clock clock, FieldErrors errors) {
		JsonNode node = body.get(name);
		if (node == null || node.isNull()) {
			return null;
		}
		try {
			Instant value = OffsetDateTime.parse(node.isString() ? node.stringValue() : "").toInstant();
			if (!value.isAfter(clock.instant())) {
				errors.add(name, "must be in the future");
				return null;
			}
			return value;
		}
		catch (DateTimeParseException ex) {
			errors.add(name, "must be an RFC 3339 date-time with offset, e.g. 2027-01-01T00:00:00Z");
			return null;
		}
	}

	static Boolean bool(ObjectNode body, String name, FieldErrors errors) {
		JsonNode node = body.get(name);
		if (node == null) {
			return null;
		}
		if (!node.isBoolean()) {
			errors.add(name, "must be true or false");
			return null;
		}
		return node.booleanValue();
	}

}
