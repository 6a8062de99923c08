package com.healthpartner.api.assessment;

import java.time.Instant;
import java.util.UUID;

import reactor.core.publisher.Flux;

import org.springframework.stereotype.Component;

import com.healthpartner.api.records.RecordList;
import com.healthpartner.api.records.UserQuery;

/**
 * A user's assessments as {@code GET /api/v1/health/assessments} lists them: oldest first
 * ({@code created_at}, then {@code id}).
 */
@Component
class AssessmentList implements RecordList<AssessmentRow> {

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
	public Flux<AssessmentRow> page(UserQuery query, int limit) {
		return this.assessments.list(query, limit);
	}

	@Override
	public Flux<AssessmentRow> stream(UserQuery query) {
		return this.assessments.stream(query);
	}

	@Override
	public Object view(AssessmentRow row) {
		return AssessmentView.of(row);
	}

	@Override
	public Instant orderedAt(AssessmentRow row) {
		return row.createdAt();
	}

	@Override
	public UUID id(AssessmentRow row) {
		return row.id();
	}

}
