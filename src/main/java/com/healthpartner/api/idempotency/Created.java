package com.healthpartner.api.idempotency;

/**
 * What a POST of a record stores and answers: its outcome, the record's path
 * ({@code Location} of a {@code 201}) and its response view; for a batch, no outcome and
 * no path, and the batch's results as view.
 */
public record Created(RecordOutcome outcome, String location, Object view) {
}
