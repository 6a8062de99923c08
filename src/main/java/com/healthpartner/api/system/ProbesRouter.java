package com.healthpartner.api.system;

import reactor.core.publisher.Mono;

import org.springframework.boot.actuate.endpoint.ApiVersion;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.health.actuate.endpoint.ReactiveHealthEndpointWebExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code GET /actuator/health/liveness} and {@code /actuator/health/readiness} on the
 * partners' port too, the same answers as on the management port: a load balancer or a
 * load tester that can reach only the partners' port sees whether this instance lives and
 * is ready, through the same event loops its partners' requests take. Status and
 * component statuses only, never details; no API key (outside {@code /api}).
 */
@Configuration(proxyBeanMethods = false)
class ProbesRouter {

	@Bean
	RouterFunction<ServerResponse> probeRoutes(ReactiveHealthEndpointWebExtension health) {
		return RouterFunctions.route()
			.GET("/actuator/health/liveness", (request) -> probe(health, "liveness"))
			.GET("/actuator/health/readiness", (request) -> probe(health, "readiness"))
			.build();
	}

	private static Mono<ServerResponse> probe(ReactiveHealthEndpointWebExtension health, String group) {
		return health.health(ApiVersion.LATEST, WebServerNamespace.MANAGEMENT, SecurityContext.NONE, false, group)
			.flatMap((answer) -> ServerResponse.status(answer.getStatus())
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(answer.getBody()));
	}

}
