package com.healthpartner.api.edge;

import org.springframework.http.server.reactive.ServerHttpRequest;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * A request the HTTP edge ({@link HttpEdge}) refuses before routing. The edge hands the
 * web layer a stand-in request marked with {@link #HEADER} (a header it removes from
 * every request a client sends), so that the refusal is answered like every other answer:
 * request id, access log, problem+json, and on {@code /api/v1} the anonymous policy's
 * rate-limit headers.
 */
public enum EdgeRefusal {

	/** The head was not valid HTTP/1.1, or framed its body ambiguously. */
	BAD_HEAD(ProblemType.VALIDATION_FAILED,
			"The request head is not valid HTTP/1.1 or does not say unambiguously where its body ends: only "
					+ "Transfer-Encoding: chunked or a single Content-Length of digits may, never both. "
					+ "The connection is closed."),

	/**
	 * The request target has a percent sign not followed by two hex digits, or is no URI.
	 */
	BAD_TARGET(ProblemType.VALIDATION_FAILED,
			"The request target is not a valid URI: every % must be followed by two hexadecimal digits, and "
					+ "characters outside the URI syntax must be percent-encoded."),

	/** The request line is over its limit. */
	TARGET_TOO_LONG(ProblemType.URI_TOO_LONG, "The request line is longer than the service accepts."),

	/** The request head (line and headers) is over its limit. */
	HEAD_TOO_LARGE(ProblemType.REQUEST_HEADER_FIELDS_TOO_LARGE, "The request head is larger than the service accepts.");

	/** Marks the stand-in request; never taken from a client. */
	public static final String HEADER = "X-Health-Partner-Edge-Refusal";

	private final ProblemType type;

	private final String detail;

	EdgeRefusal(ProblemType type, String detail) {
		this.type = type;
		this.detail = detail;
	}

	/** The refusal the edge marked this request with, or null (the common case). */
	public static EdgeRefusal of(ServerHttpRequest request) {
		String marked = request.getHeaders().getFirst(HEADER);
		return (marked != null) ? valueOf(marked) : null;
	}

	/** The problem to answer. */
	public ApiException problem() {
		return new ApiException(this.type, this.detail);
	}

}
