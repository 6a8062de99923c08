package com.healthpartner.api.access;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The four scopes (docs/api.md). GET needs {@code *:read}, POST needs {@code *:write} of
 * its resource.
 */
public enum Scope {

	ASSESSMENTS_READ("assessments:read"), ASSESSMENTS_WRITE("assessments:write"), METRICS_READ("metrics:read"),
	METRICS_WRITE("metrics:write");

	private final String value;

	Scope(String value) {
		this.value = value;
	}

	public String value() {
		return this.value;
	}

	public static Optional<Scope> of(String value) {
		return Arrays.stream(values()).filter((scope) -> scope.value.equals(value)).findFirst();
	}

	public static Set<Scope> all() {
		return EnumSet.allOf(Scope.class);
	}

	public static List<String> values(Set<Scope> scopes) {
		return scopes.stream().sorted().map(Scope::value).toList();
	}

	public static Set<Scope> parse(String[] values) {
		Set<Scope> scopes = EnumSet.noneOf(Scope.class);
		for (String value : values) {
			of(value).ifPresent(scopes::add);
		}
		return scopes;
	}

}
