package com.healthpartner.api.metric;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.listing.Page;
import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.web.Routes;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * Metrics records: measurements of a user at a time ({@code recorded_at}), checked
 * against the catalog; and the catalog's route, which needs only a valid key.
 */
@Configuration(proxyBeanMethods = false)
public class MetricKind {

	public static final RecordKind METRICS = new RecordKind("metrics", "metrics record", "metric_records", "metrics",
			"metric_view", true, Scope.METRICS_READ, Scope.METRICS_WRITE, MetricRequests::read);

	@Bean
	@Order(1)
	RecordKind metricRecords() {
		return METRICS;
	}

	/** Before the records' routes, whose {@code {id}} would take {@code catalog}. */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	RouterFunction<ServerResponse> metricCatalogRoutes(Listings listings) {
		String path = METRICS.path() + "/catalog";
		return route().GET(path, (request) -> listings.page(new Page<>(MetricCatalog.entries(), null)))
			.add(Routes.otherMethods(path, HttpMethod.GET))
			.build();
	}

}
