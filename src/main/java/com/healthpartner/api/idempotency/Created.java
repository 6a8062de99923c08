package com.healthpartner.api.idempotency;

/**
 * What a create stores and answers: the new record's path ({@code Location}) and its
 * response view.
 */
public record Created(String location, Object view) {
}
