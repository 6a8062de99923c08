package com.healthpartner.api.assessment;

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
 * Assessment routes, each with the scope it needs.
 */
@Configuration(proxyBeanMethods = false)
class AssessmentRouter {

	private static final String PATH = AssessmentHandler.PATH;

	@Bean
	RouterFunction<ServerResponse> assessmentRoutes(AssessmentHandler assessments) {
		return route().POST(PATH, assessments::create)
			.filter(Scopes.require(Scope.ASSESSMENTS_WRITE))
			.build()
			.and(route().GET(PATH, assessments::list).filter(Scopes.require(Scope.ASSESSMENTS_READ)).build())
			.and(route().GET(PATH + "/{id}", assessments::get).filter(Scopes.require(Scope.ASSESSMENTS_READ)).build())
			.and(route().DELETE(PATH + "/{id}", assessments::delete)
				.filter(Scopes.require(Scope.ASSESSMENTS_WRITE))
				.build())
			.and(Routes.otherMethods(PATH, HttpMethod.GET, HttpMethod.POST))
			.and(Routes.otherMethods(PATH + "/{id}", HttpMethod.GET, HttpMethod.DELETE));
	}

}
