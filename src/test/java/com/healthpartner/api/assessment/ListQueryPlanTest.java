package com.healthpartner.api.assessment;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.QueryPlans;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both variants of the assessment list query are one range scan of the (partner, user,
 * created_at, id) index that already yields the order.
 */
class ListQueryPlanTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Autowired
	private TransactionalOperator transaction;

	@Test
	void everyListQueryIsAnOrderedIndexRangeScan() {
		QueryPlans plans = new QueryPlans(this.db, this.transaction);
		for (boolean after : List.of(false, true)) {
			for (boolean limited : List.of(false, true)) {
				Map<String, Object> binds = new HashMap<>(Map.of("partnerId", UUID.randomUUID(), "userId", "u"));
				if (after) {
					binds.put("afterAt", Instant.parse("2026-01-01T00:00:00Z"));
					binds.put("afterId", UUID.randomUUID());
				}
				if (limited) {
					binds.put("limit", 101);
				}
				String plan = plans.explain(AssessmentRepository.listSql(after, limited), binds);
				assertThat(plan).as(plan)
					.contains("\"Index Name\": \"assessments_by_user\"")
					.doesNotContain("Seq Scan")
					.doesNotContain("\"Node Type\": \"Sort\"");
				if (after) {
					assertThat(plan).containsPattern("\"Index Cond\": \"[^\"]*ROW\\(created_at, id\\) >");
				}
			}
		}
	}

}
