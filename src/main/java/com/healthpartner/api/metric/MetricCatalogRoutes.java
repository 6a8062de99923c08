package com.healthpartner.api.metric;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.listing.Page;
import com.healthpartner.api.web.Routes;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/** The metric catalog's route, which needs only a valid key. */
@Configuration(proxyBeanMethods = false)
class MetricCatalogRoutes {

	/**
	 * Before the records' routes, whose {@code {id}} would take {@code catalog}; tried
	 * only by requests of its path, which every record request passes first.
	 */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	RouterFunction<ServerResponse> metricCatalog(Listings listings) {
		String path = Metrics.KIND.path() + "/catalog";
		return Routes.under(path,
				route().GET(path, (request) -> listings.page(new Page<>(MetricCatalog.entries(), null)))
					.add(Routes.otherMethods(path, HttpMethod.GET))
					.build());
	}

}
