package com.healthpartner.api.assessment;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.records.RecordKind;

/** Assessments: a user's answers to a questionnaire, any JSON object. */
public final class Assessments {

	public static final RecordKind KIND = new RecordKind("assessments", "assessment", "assessments", "responses",
			"assessment_view", false, Scope.ASSESSMENTS_READ, Scope.ASSESSMENTS_WRITE, AssessmentRequests::read);

	private Assessments() {
	}

}
