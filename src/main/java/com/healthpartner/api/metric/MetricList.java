package com.healthpartner.api.metric;

import java.time.Instant;
import java.util.UUID;

import reactor.core.publisher.Flux;

import org.springframework.stereotype.Component;

import com.healthpartner.api.records.RecordList;
import com.healthpartner.api.records.UserQuery;

/**
 * A user's metrics records as {@code GET /api/v1/health/metrics} lists them: filtered by
 * {@code recorded_at}, ordered by {@code recorded_at}, then {@code id}.
 */
@Component
class MetricList implements RecordList<MetricRow> {

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
	public Flux<MetricRow> page(UserQuery query, int limit) {
		return this.metrics.list(query, limit);
	}

	@Override
	public Flux<MetricRow> stream(UserQuery query) {
		return this.metrics.stream(query);
	}

	@Override
	public Object view(MetricRow row) {
		return MetricView.of(row);
	}

	@Override
	public Instant orderedAt(MetricRow row) {
		return row.recordedAt();
	}

	@Override
	public UUID id(MetricRow row) {
		return row.id();
	}

}
