package com.healthpartner.api.problem;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

/**
 * An error a partner can act on; the error handler renders it as problem+json with its
 * stable code.
 */
public class ApiException extends RuntimeException {

	private final ProblemType type;

	private final List<FieldError> errors;

	private final Map<String, String> headers;

	public ApiException(ProblemType type, String detail) {
		this(type, detail, List.of(), Map.of());
	}

	public ApiException(ProblemType type, String detail, List<FieldError> errors, Map<String, String> headers) {
		super(detail, null, false, false);
		this.type = type;
		this.errors = List.copyOf(errors);
		this.headers = Map.copyOf(headers);
	}

	public static ApiException validation(List<FieldError> errors) {
		String detail = (errors.size() == 1) ? "1 field is invalid: " + errors.get(0).field()
				: errors.size() + " fields are invalid";
		return new ApiException(ProblemType.VALIDATION_FAILED, detail, errors, Map.of());
	}

	public static ApiException invalidField(String field, String message) {
		return validation(List.of(new FieldError(field, message)));
	}

	public static ApiException notFound(String detail) {
		return new ApiException(ProblemType.NOT_FOUND, detail);
	}

	/** {@code 405} with {@code Allow} listing the methods the path accepts. */
	public static ApiException methodNotAllowed(Set<HttpMethod> allowed) {
		String allow = allowed.stream().map(HttpMethod::name).sorted().collect(Collectors.joining(", "));
		return new ApiException(ProblemType.METHOD_NOT_ALLOWED, "This path accepts " + allow, List.of(),
				Map.of(HttpHeaders.ALLOW, allow));
	}

	public ProblemType type() {
		return this.type;
	}

	public List<FieldError> errors() {
		return this.errors;
	}

	public Map<String, String> headers() {
		return this.headers;
	}

}
