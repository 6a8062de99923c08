package com.healthpartner.api.idempotency;

import org.springframework.http.HttpStatus;

/**
 * What a POST of a health record did, as header {@code Record-Outcome} says: a new record
 * ({@code 201}), an update of the record with the same {@code client_record_id}, or
 * nothing because the stored version is the same or higher ({@code 200}).
 */
public enum RecordOutcome {

	CREATED(HttpStatus.CREATED), UPDATED(HttpStatus.OK), UNCHANGED(HttpStatus.OK);

	public static final String HEADER = "Record-Outcome";

	private final HttpStatus status;

	RecordOutcome(HttpStatus status) {
		this.status = status;
	}

	public String value() {
		return name().toLowerCase();
	}

	public HttpStatus status() {
		return this.status;
	}

	static RecordOutcome of(String value) {
		return (value == null) ? CREATED : valueOf(value.toUpperCase());
	}

}
