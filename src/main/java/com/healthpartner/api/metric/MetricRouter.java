package com.healthpartner.api.metric;

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
 * Metrics routes, each with the scope it needs. The catalog comes before {@code {id}} and
 * needs only a valid key.
 */
@Configuration(proxyBeanMethods = false)
class MetricRouter {

	private static final String PATH = MetricHandler.PATH;

	@Bean
	RouterFunction<ServerResponse> metricRoutes(MetricHandler metrics) {
		return route().GET(PATH + "/catalog", metrics::catalog)
			.add(route().POST(PATH, metrics::create).filter(Scopes.require(Scope.METRICS_WRITE)).build())
			.add(route().GET(PATH, metrics::list).filter(Scopes.require(Scope.METRICS_READ)).build())
			.add(route().GET(PATH + "/{id}", metrics::get).filter(Scopes.require(Scope.METRICS_READ)).build())
			.add(route().DELETE(PATH + "/{id}", metrics::delete).filter(Scopes.require(Scope.METRICS_WRITE)).build())
			.add(Routes.otherMethods(PATH + "/catalog", HttpMethod.GET))
			.add(Routes.otherMethods(PATH, HttpMethod.GET, HttpMethod.POST))
			.add(Routes.otherMethods(PATH + "/{id}", HttpMethod.GET, HttpMethod.DELETE))
			.build();
	}

}
