package com.healthpartner.api;

import java.util.List;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.healthpartner.api.assessment.Assessments;
import com.healthpartner.api.metric.Metrics;
import com.healthpartner.api.records.RecordKind;

/**
 * The kinds of health record the service holds, in the one order every kind-wide feature
 * uses (routes, erasure, the change feed's cursors, which encode the kinds a key reads in
 * this order): a new kind goes at the end (docs/architecture.md, Record kinds).
 */
@Configuration(proxyBeanMethods = false)
public class RecordKinds {

	private static final List<RecordKind> ALL = List.of(Metrics.KIND, Assessments.KIND);

	/** Every kind, in that order (the tests take them from here too). */
	public static List<RecordKind> all() {
		return ALL;
	}

	@Bean
	List<RecordKind> kindsOfRecords() {
		return ALL;
	}

}
