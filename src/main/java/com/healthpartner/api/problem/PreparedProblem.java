package com.healthpartner.api.problem;

/**
 * A problem's answer made once for answers that differ only in their request id
 * ({@link ProblemWriter#prepare}): its type, its body's bytes up to the id's value, and
 * its headers as name, value pairs whose second value (the id) and last (the length) each
 * answer fills in. Held by its user, read only by {@link ProblemWriter}.
 */
public final class PreparedProblem {

	private final ProblemType type;

	private final byte[] bodyBeforeId;

	private final CharSequence[] headers;

	PreparedProblem(ProblemType type, byte[] bodyBeforeId, CharSequence[] headers) {
		this.type = type;
		this.bodyBeforeId = bodyBeforeId;
		this.headers = headers;
	}

	ProblemType type() {
		return this.type;
	}

	byte[] bodyBeforeId() {
		return this.bodyBeforeId;
	}

	CharSequence[] headers() {
		return this.headers;
	}

}
