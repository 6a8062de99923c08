package com.healthpartner.api.problem;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import org.springframework.http.HttpStatus;

/**
 * The stable problem codes (docs/api.md, Errors), with the text of their
 * {@code /problems/{code}} pages.
 */
public enum ProblemType {

	VALIDATION_FAILED(HttpStatus.BAD_REQUEST, "Request validation failed",
			"A field or query parameter is missing, of the wrong type or out of bounds. Every bad field is listed in errors[] with its path and what it must be; fix them all and send the request again."),
	MALFORMED_JSON(HttpStatus.BAD_REQUEST, "Malformed JSON",
			"The body is not valid JSON, repeats a key, or nests deeper than 32 levels. Send one well-formed JSON object."),
	INVALID_DATE_RANGE(HttpStatus.BAD_REQUEST, "Invalid date range",
			"start_date is after end_date. Swap them or widen the range; both ends are inclusive."),
	MISSING_API_KEY(HttpStatus.UNAUTHORIZED, "API key missing",
			"Every /api/v1 request except registration needs the x-api-key header with the key issued when your registration was approved."),
	INVALID_API_KEY(HttpStatus.UNAUTHORIZED, "API key not valid",
			"The key is unknown, revoked or expired. Check that you send the whole key (hpk_...), or ask your administrator for a new one."),
	INVALID_SIGNATURE(HttpStatus.UNAUTHORIZED, "Signature not valid",
			"The x-signature header is missing where signing is required, its timestamp is more than 300 seconds from server time, it was already used for a write, or the HMAC does not match. Sign t, the method, the path with query and the SHA-256 of the body with your secret."),
	INVALID_ADMIN_TOKEN(HttpStatus.UNAUTHORIZED, "Administrator token not valid",
			"Administrator routes need the header Authorization: Bearer <admin token>. Partner API keys do not work here."),
	INSUFFICIENT_SCOPE(HttpStatus.FORBIDDEN, "Insufficient scope",
			"The key used lacks the scope this route needs (named in detail). An administrator can issue a key with that scope."),
	PARTNER_SUSPENDED(HttpStatus.FORBIDDEN, "Partner suspended",
			"An administrator has suspended your organisation's access. Contact the API team to restore it."),
	NOT_FOUND(HttpStatus.NOT_FOUND, "Not found",
			"No route or no resource exists at this path for you. Check the path, and that the record belongs to your organisation."),
	METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed",
			"This path exists but not with this method; the Allow header lists the methods it accepts."),
	NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "Not acceptable",
			"The Accept header asks for a representation this route cannot produce; use application/json (or application/x-ndjson for list exports)."),
	REQUEST_TIMEOUT(HttpStatus.REQUEST_TIMEOUT, "Request timeout",
			"The request head or body stopped arriving: the whole request must arrive within 10 seconds of its first byte. The connection was closed; send the request again on a new connection."),
	CONFLICT(HttpStatus.CONFLICT, "Conflict",
			"The resource is not in a state that allows this change, for example approving a registration that is no longer pending."),
	REGISTRATION_EXISTS(HttpStatus.CONFLICT, "Registration exists",
			"A pending or approved registration already uses this email. Wait for the administrator's decision, or use the credentials already issued."),
	WEBHOOK_LIMIT(HttpStatus.CONFLICT, "Webhook limit reached",
			"Your organisation already has as many webhook endpoints as allowed (5 unless configured otherwise). Delete one, or change one's URL or events instead."),
	IDEMPOTENCY_IN_PROGRESS(HttpStatus.CONFLICT, "Idempotent request in progress",
			"The first request with this Idempotency-Key is still being processed. Retry after a moment to get its stored answer."),
	CURSOR_EXPIRED(HttpStatus.GONE, "Cursor expired",
			"The change-feed cursor points before the oldest change kept (changes are kept 30 days unless configured otherwise). Resync from the lists or the NDJSON export, then start the feed again without cursor."),
	PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "Payload too large",
			"The request body is larger than the service accepts (64 KiB, or 2 MiB for a batch, unless configured otherwise). Send smaller records or fewer in a batch."),
	URI_TOO_LONG(HttpStatus.URI_TOO_LONG, "URI too long",
			"The request line is longer than the service accepts (4096 characters of request target unless configured otherwise). Send fewer or shorter query parameters."),
	UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type",
			"Request bodies must be JSON sent with Content-Type: application/json (charset utf-8 or none) and without a Content-Encoding other than identity."),
	IDEMPOTENCY_KEY_REUSED(HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency key reused",
			"This Idempotency-Key was already used within 24 hours with a different request body. Use a new key for a new request."),
	RATE_LIMITED(HttpStatus.TOO_MANY_REQUESTS, "Rate limit exceeded",
			"Your plan's requests for the current window are used up, or, for an NDJSON export, your organisation (or this instance) already runs as many exports at once as allowed; detail says which. Wait for the number of seconds in Retry-After; the X-RateLimit-* headers show the window."),
	TOO_MANY_IMPORTS(HttpStatus.TOO_MANY_REQUESTS, "Too many imports",
			"Your organisation already has as many imports receiving or processing as allowed (2 unless configured otherwise). Wait for the number of seconds in Retry-After, or for one of them to complete."),
	REQUEST_HEADER_FIELDS_TOO_LARGE(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Request header fields too large",
			"The request line and headers together are larger than the service accepts (8 KiB unless configured otherwise). Send fewer or shorter headers."),
	INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error",
			"Something failed on our side. Retry later; quote the request_id when you contact support."),
	SERVICE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Service unavailable",
			"The service cannot reach its database right now, or this instance is shutting down. Retry after the number of seconds in Retry-After; nothing was written.");

	private final HttpStatus status;

	private final String title;

	private final String description;

	private final String code;

	ProblemType(HttpStatus status, String title, String description) {
		this.status = status;
		this.title = title;
		this.description = description;
		// once, and in no locale's rules: every problem's body names it
		this.code = name().toLowerCase(Locale.ROOT);
	}

	public String code() {
		return this.code;
	}

	public HttpStatus status() {
		return this.status;
	}

	public String title() {
		return this.title;
	}

	public String description() {
		return this.description;
	}

	public static Optional<ProblemType> fromCode(String code) {
		return Arrays.stream(values()).filter((type) -> type.code().equals(code)).findFirst();
	}

}
