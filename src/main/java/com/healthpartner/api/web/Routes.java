package com.healthpartner.api.web;

import java.util.Set;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.problem.ApiException;

/**
 * Helpers for functional routes. Functional routers only see matches, so each router ends
 * its paths with {@link #otherMethods} to answer 405 with {@code Allow} instead of a
 * misleading 404.
 */
public final class Routes {

	private Routes() {
	}

	public static RouterFunction<ServerResponse> otherMethods(String pattern, HttpMethod... allowed) {
		Set<HttpMethod> methods = Set.of(allowed);
		return RouterFunctions.route(RequestPredicates.path(pattern),
				(request) -> Mono.error(ApiException.methodNotAllowed(methods)));
	}

}
