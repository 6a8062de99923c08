package com.healthpartner.api.idempotency;

/**
 * What a POST of a record stores and answers: its outcome, the record's path
 * ({@code Location} of a {@code 201}) and its response view.
 */
public record Created(RecordOutcome outcome, String location, Object view) {
}
