package com.healthpartner.api.docs;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

import reactor.core.publisher.Mono;

import org.springframework.context.ApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The method and path pattern of every route that functional routers declare, read with
 * their visitors. Routes without a method predicate (the 405 fallbacks of
 * {@code Routes.otherMethods}) declare no operation.
 */
final class RoutedOperations {

	private RoutedOperations() {
	}

	/**
	 * Each operation (method, path pattern) of the context's {@link RouterFunction}
	 * beans.
	 */
	static void of(ApplicationContext context, BiConsumer<String, String> operation) {
		for (RouterFunction<?> router : context.getBeansOfType(RouterFunction.class).values()) {
			router.accept(new Walker(operation));
		}
	}

	private static final class Walker implements RouterFunctions.Visitor {

		private final Deque<String> prefixes = new ArrayDeque<>();

		private final BiConsumer<String, String> operation;

		Walker(BiConsumer<String, String> operation) {
			this.operation = operation;
		}

		@Override
		public void startNested(RequestPredicate predicate) {
			this.prefixes.push(prefix() + Matched.by(predicate).path());
		}

		@Override
		public void endNested(RequestPredicate predicate) {
			this.prefixes.pop();
		}

		@Override
		public void route(RequestPredicate predicate, HandlerFunction<?> handler) {
			Matched matched = Matched.by(predicate);
			matched.methods().forEach((method) -> this.operation.accept(method.name(), prefix() + matched.path()));
		}

		@Override
		public void resources(Function<ServerRequest, Mono<Resource>> lookup) {
		}

		@Override
		public void attributes(Map<String, Object> attributes) {
		}

		@Override
		public void unknown(RouterFunction<?> routerFunction) {
		}

		private String prefix() {
			return this.prefixes.isEmpty() ? "" : this.prefixes.peek();
		}

	}

	/** The methods and path a predicate matches; only these two parts are read. */
	private record Matched(Set<HttpMethod> methods, String path) {

		static Matched by(RequestPredicate predicate) {
			Set<HttpMethod> methods = new HashSet<>();
			StringBuilder path = new StringBuilder();
			predicate.accept(new RequestPredicates.Visitor() {

				@Override
				public void method(Set<HttpMethod> matched) {
					methods.addAll(matched);
				}

				@Override
				public void path(String pattern) {
					path.append(pattern);
				}

				@Override
				@SuppressWarnings("removal")
				public void pathExtension(String extension) {
				}

				@Override
				public void header(String name, String value) {
				}

				@Override
				public void queryParam(String name, String value) {
				}

				@Override
				public void version(String version) {
				}

				@Override
				public void startAnd() {
				}

				@Override
				public void and() {
				}

				@Override
				public void endAnd() {
				}

				@Override
				public void startOr() {
				}

				@Override
				public void or() {
				}

				@Override
				public void endOr() {
				}

				@Override
				public void startNegate() {
				}

				@Override
				public void endNegate() {
				}

				@Override
				public void unknown(RequestPredicate unknown) {
				}

			});
			return new Matched(methods, path.toString());
		}

	}

}
