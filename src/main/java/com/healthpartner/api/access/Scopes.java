package com.healthpartner.api.access;

import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * Declares the scope a route needs, next to the route in its router. It runs after the
 * access filter (key, status, rate limit, signature), as the contract orders the checks.
 */
public final class Scopes {

	private Scopes() {
	}

	public static HandlerFilterFunction<ServerResponse, ServerResponse> require(Scope scope) {
		return (request, next) -> {
			ApiPrincipal principal = Principals.of(request);
			if (!principal.scopes().contains(scope)) {
				return Mono.error(new ApiException(ProblemType.INSUFFICIENT_SCOPE, "This route needs the scope "
						+ scope.value() + "; the key has " + Scope.values(principal.scopes())));
			}
			return next.handle(request);
		};
	}

}
