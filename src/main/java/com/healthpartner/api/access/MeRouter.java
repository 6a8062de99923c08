package com.healthpartner.api.access;

import java.util.List;
import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.web.Routes;

/**
 * {@code GET /api/v1/auth/me}: any valid key may ask who it is and what it may do.
 */
@Configuration(proxyBeanMethods = false)
class MeRouter {

	@Bean
	RouterFunction<ServerResponse> meRoutes() {
		return RouterFunctions.route().GET("/api/v1/auth/me", (request) -> {
			ApiPrincipal principal = Principals.of(request);
			return ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(new Me(principal.partnerId(), principal.partnerName(), principal.plan(),
						principal.status().value(), principal.keyId(), Scope.values(principal.scopes())));
		}).add(Routes.otherMethods("/api/v1/auth/me", HttpMethod.GET)).build();
	}

	record Me(UUID partnerId, String partnerName, String plan, String status, UUID keyId, List<String> scopes) {
	}

}
