package com.healthpartner.api.metric;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.records.RecordList;
import com.healthpartner.api.records.StoredPage;
import com.healthpartner.api.records.UserQuery;

/**
 * A user's metrics records as {@code GET /api/v1/health/metrics} lists them: filtered by
 * {@code recorded_at}, ordered by {@code recorded_at}, then {@code id}.
 */
@Component
class MetricList implements RecordList {

	private final MetricRepository metrics;

	MetricList(MetricRepository metrics) {
		this.metrics = metrics;
	}

	@Override
	public String path() {
		return MetricHandler.PATH;
	}

	@Override
	public String resource() {
		return MetricHandler.RESOURCE;
	}

	@Override
	public boolean filteredByDate() {
		return true;
	}

	@Override
	public Mono<StoredPage> page(UserQuery query, int limit) {
		return this.metrics.page(query, limit);
	}

	@Override
	public Flux<String> stream(UserQuery query) {
		return this.metrics.stream(query);
	}

}
