package com.healthpartner.api.problem;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A problem's answer made once for answers that differ only in their request id
 * ({@link ProblemWriter#prepare}): its status, its body's bytes up to the id's value, and
 * its headers as name, value pairs whose second value (the id) and last (the length) each
 * answer fills in.
 */
public record PreparedProblem(ProblemType type, HttpResponseStatus status, byte[] bodyBeforeId,
		CharSequence[] headers) {

}
