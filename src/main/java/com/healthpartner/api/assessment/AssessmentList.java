package com.healthpartner.api.assessment;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.records.RecordList;
import com.healthpartner.api.records.StoredPage;
import com.healthpartner.api.records.UserQuery;

/**
 * A user's assessments as {@code GET /api/v1/health/assessments} lists them: oldest first
 * ({@code created_at}, then {@code id}).
 */
@Component
class AssessmentList implements RecordList {

	private final AssessmentRepository assessments;

	AssessmentList(AssessmentRepository assessments) {
		this.assessments = assessments;
	}

	@Override
	public String path() {
		return AssessmentHandler.PATH;
	}

	@Override
	public String resource() {
		return AssessmentHandler.RESOURCE;
	}

	@Override
	public boolean filteredByDate() {
		return false;
	}

	@Override
	public Mono<StoredPage> page(UserQuery query, int limit) {
		return this.assessments.page(query, limit);
	}

	@Override
	public Flux<String> stream(UserQuery query) {
		return this.assessments.stream(query);
	}

}
