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

	/** A route that needs at least one of two scopes. */
	public static HandlerFilterFunction<ServerResponse, ServerResponse> requireAny(Scope one, Scope other) {
		return (request, next) -> {
			ApiPrincipal principal = Principals.of(request);
			if (!principal.scopes().contains(one) && !principal.scopes().contains(other)) {
				return Mono.error(new ApiException(ProblemType.INSUFFICIENT_SCOPE, "This route needs the scope "
						+ one.value() + " or " + other.value() + "; the key has " + Scope.values(principal.scopes())));
			}
			return next.handle(request);
		};
	}

	/** A route that needs both scopes. */
	public static HandlerFilterFunction<ServerResponse, ServerResponse> requireBoth(Scope one, Scope other) {
		return (request, next) -> {
			ApiPrincipal principal = Principals.of(request);
			if (!principal.scopes().contains(one) || !principal.scopes().contains(other)) {
				return Mono.error(new ApiException(ProblemType.INSUFFICIENT_SCOPE, "This route needs the scopes "
						+ one.value() + " and " + other.value() + "; the key has " + Scope.values(principal.scopes())));
			}
			return next.handle(request);
		};
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
