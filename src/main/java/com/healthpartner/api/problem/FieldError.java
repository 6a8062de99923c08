package com.healthpartner.api.problem;

/**
 * One bad field of a request: its path ({@code metrics.weight}) or query parameter name,
 * and what it must be.
 */
public record FieldError(String field, String message) {
}
