package com.healthpartner.api.assessment;

import org.springframework.stereotype.Component;

import com.healthpartner.api.changes.ChangeRow;
import com.healthpartner.api.changes.ChangedRecords;

/** Assessments in the change feed, shown with {@link AssessmentView}. */
@Component
class AssessmentChanges implements ChangedRecords {

	@Override
	public String resource() {
		return AssessmentHandler.RESOURCE;
	}

	@Override
	public void writeRecord(StringBuilder out, ChangeRow change) {
		AssessmentView
			.of(new AssessmentRow(change.recordId(), change.userId(), change.clientRecordId(),
					change.clientRecordVersion(), change.data(), change.createdAt(), change.updatedAt()))
			.writeJson(out);
	}

}
