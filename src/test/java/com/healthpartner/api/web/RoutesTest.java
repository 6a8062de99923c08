package com.healthpartner.api.web;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.POST;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * {@link Routes#firstOf}: the routers in their order, the first that routes a request
 * winning, whether a router answers at once or needs subscribing; an error ends the
 * routing; a request none routes is not routed.
 */
class RoutesTest {

	private static final HandlerFunction<ServerResponse> FIRST = (request) -> ServerResponse.ok().build();

	private static final HandlerFunction<ServerResponse> SECOND = (request) -> ServerResponse.accepted().build();

	private final AtomicInteger later = new AtomicInteger();

	@Test
	void theFirstRouterInOrderThatRoutesTheRequestWins() {
		RouterFunction<ServerResponse> routers = Routes.firstOf(List.of(route(POST("/a"), SECOND),
				route(GET("/a"), FIRST), route(GET("/a"), SECOND), counted(route(GET("/a"), SECOND))));

		StepVerifier.create(routers.route(get("/a"))).expectNext(FIRST).verifyComplete();
		assertNotAsked();
	}

	@Test
	void aRouterThatNeedsSubscribingIsFollowedByTheRestWhenItRoutesNothing() {
		RouterFunction<ServerResponse> routers = Routes.firstOf(List.of(subscribed(route(GET("/b"), FIRST)),
				subscribed(route(GET("/a"), FIRST)), route(GET("/a"), SECOND)));

		StepVerifier.create(routers.route(get("/a"))).expectNext(FIRST).verifyComplete();
		StepVerifier.create(routers.route(get("/c"))).verifyComplete();
	}

	@Test
	void aRouterThatNeedsSubscribingAndRoutesEndsTheSearch() {
		RouterFunction<ServerResponse> routers = Routes.firstOf(List.of(route(GET("/b"), SECOND),
				subscribed(route(GET("/a"), FIRST)), counted(route(GET("/a"), SECOND))));

		StepVerifier.create(routers.route(get("/a"))).expectNext(FIRST).verifyComplete();
		assertNotAsked();
	}

	@Test
	void aRoutersErrorEndsTheRoutingWithThatError() {
		IllegalStateException broken = new IllegalStateException("broken");
		RouterFunction<ServerResponse> atOnce = (request) -> Mono.error(broken);
		RouterFunction<ServerResponse> routers = Routes.firstOf(List.of(atOnce, counted(route(GET("/a"), SECOND))));

		StepVerifier.create(routers.route(get("/a"))).expectErrorMatches((error) -> error == broken).verify();
		assertNotAsked();
	}

	@Test
	void aRequestNoRouterRoutesIsNotRouted() {
		RouterFunction<ServerResponse> routers = Routes.firstOf(List.of(route(GET("/a"), FIRST),
				Routes.otherMethods("/a", HttpMethod.GET), subscribed(route(GET("/b"), SECOND))));

		StepVerifier.create(routers.route(get("/c"))).verifyComplete();
	}

	private static ServerRequest get(String path) {
		return ServerRequest.create(MockServerWebExchange.from(MockServerHttpRequest.get(path)),
				HandlerStrategies.withDefaults().messageReaders());
	}

	/** {@code router}, answering only once subscribed to (as a filtered route does). */
	private static RouterFunction<ServerResponse> subscribed(RouterFunction<ServerResponse> router) {
		return (request) -> router.route(request).map((handler) -> handler);
	}

	/** {@code router}, counting the requests it is asked to route. */
	private RouterFunction<ServerResponse> counted(RouterFunction<ServerResponse> router) {
		return (request) -> {
			this.later.incrementAndGet();
			return router.route(request);
		};
	}

	private void assertNotAsked() {
		assertThat(this.later).hasValue(0);
	}

}
