package com.healthpartner.api.problem;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects every bad field of a request so that one answer lists them all.
 */
public final class FieldErrors {

	private final List<FieldError> errors = new ArrayList<>();

	public FieldErrors add(String field, String message) {
		this.errors.add(new FieldError(field, message));
		return this;
	}

	public boolean isEmpty() {
		return this.errors.isEmpty();
	}

	public boolean has(String field) {
		return this.errors.stream().anyMatch((error) -> error.field().equals(field));
	}

	/** The errors collected, in the order they were added. */
	public List<FieldError> list() {
		return List.copyOf(this.errors);
	}

	public void throwIfAny() {
		if (!this.errors.isEmpty()) {
			throw ApiException.validation(this.errors);
		}
	}

}
