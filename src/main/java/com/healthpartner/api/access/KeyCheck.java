package com.healthpartner.api.access;

import com.healthpartner.api.problem.ApiException;

/**
 * The outcome of checks 1 and 2: the key's principal (a valid key of an active partner),
 * or the refusal to answer ({@code 401}, {@code 403}).
 */
public record KeyCheck(ApiPrincipal principal, ApiException refusal) {

	static KeyCheck granted(ApiPrincipal principal) {
		return new KeyCheck(principal, null);
	}

	static KeyCheck refused(ApiException refusal) {
		return new KeyCheck(null, refusal);
	}

	public boolean isGranted() {
		return this.refusal == null;
	}

}
