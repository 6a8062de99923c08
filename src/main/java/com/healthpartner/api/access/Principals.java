package com.healthpartner.api.access;

import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The partner behind a request, for handlers; the access filter guarantees it is there on
 * {@code /api/v1} routes that need a key.
 */
public final class Principals {

	private Principals() {
	}

	public static ApiPrincipal of(ServerRequest request) {
		return request.attribute(ApiPrincipal.ATTRIBUTE)
			.map(ApiPrincipal.class::cast)
			.orElseThrow(() -> new IllegalStateException("No API principal on " + request.path()));
	}

}
