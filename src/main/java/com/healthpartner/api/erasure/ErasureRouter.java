package com.healthpartner.api.erasure;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.access.Scopes;
import com.healthpartner.api.web.Routes;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * Erasing a user needs both write scopes (it deletes metrics and assessments); reading an
 * erasure's progress needs either.
 */
@Configuration(proxyBeanMethods = false)
class ErasureRouter {

	@Bean
	RouterFunction<ServerResponse> erasureRoutes(ErasureHandler erasures) {
		String user = ErasureHandler.USERS + "/{user_id}";
		String erasure = ErasureHandler.ERASURES + "/{id}";
		return route().DELETE(user, erasures::erase)
			.filter(Scopes.requireBoth(Scope.METRICS_WRITE, Scope.ASSESSMENTS_WRITE))
			.build()
			.and(route().GET(erasure, erasures::get)
				.filter(Scopes.requireAny(Scope.METRICS_WRITE, Scope.ASSESSMENTS_WRITE))
				.build())
			.and(Routes.otherMethods(user, HttpMethod.DELETE))
			.and(Routes.otherMethods(erasure, HttpMethod.GET));
	}

}
