package com.healthpartner.api.web;

import java.util.List;
import java.util.Set;

import reactor.core.Fuseable;
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

	/**
	 * {@code routers} tried in their order, the first that routes the request winning, as
	 * {@link RouterFunction#and} and {@link RouterFunction#andOther} try them, but
	 * without their nesting: each of those is a {@code Flux.concat(...).next()} of the
	 * two sides, so a request found by the first of twenty routers still passes twenty
	 * levels of operators (and since Reactor 3.8 each level's subscriber is a
	 * {@code ThreadLocal} it sets and removes). A router that answers at once
	 * ({@code Mono.just}, {@code Mono.empty}, as a route's predicate or {@link #under}
	 * do) is read without subscribing; only one that needs subscribing is followed by the
	 * rest, once.
	 */
	@SuppressWarnings("unchecked")
	public static <T extends ServerResponse> RouterFunction<T> firstOf(List<? extends RouterFunction<?>> routers) {
		RouterFunction<T>[] tried = routers.toArray(RouterFunction[]::new);
		return new RouterFunction<>() {

			@Override
			public Mono<HandlerFunction<T>> route(ServerRequest request) {
				return routeFrom(tried, 0, request);
			}

			@Override
			public void accept(RouterFunctions.Visitor visitor) {
				for (RouterFunction<T> router : tried) {
					router.accept(visitor);
				}
			}

			@Override
			public String toString() {
				return List.of(tried).toString();
			}

		};
	}

	private static <T extends ServerResponse> Mono<HandlerFunction<T>> routeFrom(RouterFunction<T>[] routers, int first,
			ServerRequest request) {
		for (int i = first; i < routers.length; i++) {
			Mono<HandlerFunction<T>> found = routers[i].route(request);
			if (found instanceof Fuseable.ScalarCallable<?> known) {
				Object handler;
				try {
					handler = known.call();
				}
				catch (Exception failure) {
					// a router's error (Mono.error): it ends the routing, as in a concat
					return found;
				}
				if (handler == null) {
					continue;
				}
				return found;
			}
			int next = i + 1;
			return (next == routers.length) ? found
					: found.switchIfEmpty(Mono.defer(() -> routeFrom(routers, next, request)));
		}
		return Mono.empty();
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
