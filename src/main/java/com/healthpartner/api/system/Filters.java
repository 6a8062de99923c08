package com.healthpartner.api.system;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;

/**
 * The conditions of a listing that holds only the filters a caller gave: each statement
 * text names the filters it applies, so that its cached plan (generic, see
 * {@code DatabaseConfiguration}) is an index scan for exactly those, never a plan that
 * has to allow for a filter bound as null ({@code :x is null or column = :x} keeps a
 * generic plan from using the column's index).
 */
public final class Filters {

	private final List<String> conditions = new ArrayList<>();

	private final Map<String, Object> values = new LinkedHashMap<>();

	/**
	 * Adds {@code condition} with its parameters, given as name and value pairs, when
	 * {@code value} is present.
	 */
	public Filters when(Object value, String condition, Object... namesAndValues) {
		return (value != null) ? and(condition, namesAndValues) : this;
	}

	/** Adds {@code condition} with its parameters, given as name and value pairs. */
	public Filters and(String condition, Object... namesAndValues) {
		if (namesAndValues.length % 2 != 0) {
			throw new IllegalArgumentException("Parameters come as name and value pairs: " + condition);
		}
		this.conditions.add(condition);
		for (int i = 0; i < namesAndValues.length; i += 2) {
			this.values.put((String) namesAndValues[i], namesAndValues[i + 1]);
		}
		return this;
	}

	/** {@code where} and the conditions joined by {@code and}, or nothing without any. */
	public String where() {
		return this.conditions.isEmpty() ? "" : "where " + String.join(" and ", this.conditions);
	}

	/** Binds the values of the conditions added. */
	public GenericExecuteSpec bind(GenericExecuteSpec spec) {
		for (Map.Entry<String, Object> value : this.values.entrySet()) {
			spec = spec.bind(value.getKey(), value.getValue());
		}
		return spec;
	}

}
