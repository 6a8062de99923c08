package com.healthpartner.api.web;

import java.util.List;
import java.util.Set;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.http.server.PathContainer;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
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

	/**
	 * {@code routes}, tried only by requests whose path begins with {@code prefix}: a
	 * request elsewhere is turned away by one look at its path rather than by each
	 * route's pattern in turn (each try costs a pattern match and a log-level check).
	 * Segments are compared as a route's pattern compares them (decoded, without matrix
	 * variables) and separators are skipped, so whatever one of the routes would match
	 * passes.
	 */
	public static RouterFunction<ServerResponse> under(String prefix, RouterFunction<ServerResponse> routes) {
		List<String> segments = List.of(prefix.substring(1).split("/"));
		return new RouterFunction<>() {

			@Override
			public Mono<HandlerFunction<ServerResponse>> route(ServerRequest request) {
				return begins(request.requestPath().pathWithinApplication(), segments) ? routes.route(request)
						: Mono.empty();
			}

			@Override
			public void accept(RouterFunctions.Visitor visitor) {
				routes.accept(visitor);
			}

		};
	}

	private static boolean begins(PathContainer path, List<String> segments) {
		int next = 0;
		for (PathContainer.Element element : path.elements()) {
			if (next == segments.size()) {
				return true;
			}
			if (element instanceof PathContainer.PathSegment segment
					&& !segment.valueToMatch().equals(segments.get(next++))) {
				return false;
			}
		}
		return next == segments.size();
	}

}
