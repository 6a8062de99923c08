package com.healthpartner.api.assessment;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.records.RecordKind;

/** Assessments: a user's answers to a questionnaire, any JSON object. */
@Configuration(proxyBeanMethods = false)
public class AssessmentKind {

	public static final RecordKind ASSESSMENTS = new RecordKind("assessments", "assessment", "assessments", "responses",
			"assessment_view", false, Scope.ASSESSMENTS_READ, Scope.ASSESSMENTS_WRITE, AssessmentRequests::read);

	@Bean
	@Order(2)
	RecordKind assessmentRecords() {
		return ASSESSMENTS;
	}

}
