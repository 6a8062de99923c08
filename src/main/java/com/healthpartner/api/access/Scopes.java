package com.healthpartner.api.access;

import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * Declares the scope a route needs, next to the route in its router. It runs after the
 * access filter (key, status, rate limit, signature), as docs/api.md orders the checks.
 */
public final class Scopes {

	private Scopes() {
	}

	/** A route that needs at least one of {@code scopes}. */
	public static HandlerFilterFunction<ServerResponse, ServerResponse> requireAny(List<Scope> scopes) {
		String needed = "This route needs the scope " + listed(scopes, " or ") + "; the key has ";
		return (request, next) -> {
			ApiPrincipal principal = Principals.of(request);
			if (scopes.stream().noneMatch(principal.scopes()::contains)) {
				return Mono
					.error(new ApiException(ProblemType.INSUFFICIENT_SCOPE, needed + Scope.values(principal.scopes())));
			}
			return next.handle(request);
		};
	}

	/** A route that needs every one of {@code scopes}. */
	public static HandlerFilterFunction<ServerResponse, ServerResponse> requireAll(List<Scope> scopes) {
		String needed = "This route needs the scopes " + listed(scopes, " and ") + "; the key has ";
		return (request, next) -> {
			ApiPrincipal principal = Principals.of(request);
			if (!principal.scopes().containsAll(scopes)) {
				return Mono
					.error(new ApiException(ProblemType.INSUFFICIENT_SCOPE, needed + Scope.values(principal.scopes())));
			}
			return next.handle(request);
		};
	}

	/** {@code a}, {@code a or b}, {@code a, b or c}. */
	private static String listed(List<Scope> scopes, String last) {
		List<String> values = scopes.stream().map(Scope::value).toList();
		int end = values.size() - 1;
		return (end <= 0) ? String.join("", values)
				: String.join(", ", values.subList(0, end)) + last + values.get(end);
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
