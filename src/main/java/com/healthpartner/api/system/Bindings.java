package com.healthpartner.api.system;

import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;

/**
 * Binding a value that may be absent: R2DBC needs the type of a null to bind it.
 */
public final class Bindings {

	private Bindings() {
	}

	/** Binds {@code value}, or a null of {@code type} when it is null. */
	public static <T> GenericExecuteSpec nullable(GenericExecuteSpec spec, String name, T value, Class<T> type) {
		return (value != null) ? spec.bind(name, value) : spec.bindNull(name, type);
	}

}
