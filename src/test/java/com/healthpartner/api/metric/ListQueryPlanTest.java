package com.healthpartner.api.metric;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.json.DateRange;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.QueryPlans;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every variant of the metrics list query (with or without dates, cursor and limit) is
 * one range scan of the (partner, user, recorded_at, id) index that already yields the
 * order: no sequential scan and no sort, whatever the table holds.
 */
class ListQueryPlanTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Autowired
	private TransactionalOperator transaction;

	@Test
	void everyListQueryIsAnOrderedIndexRangeScan() {
		QueryPlans plans = new QueryPlans(this.db, this.transaction);
		Instant at = Instant.parse("2026-01-01T00:00:00Z");
		for (DateRange range : List.of(new DateRange(null, null, false), new DateRange(at, null, false),
				new DateRange(null, at, false), new DateRange(at, at.plusSeconds(86_400), false))) {
			for (boolean after : List.of(false, true)) {
				for (boolean limited : List.of(false, true)) {
					Map<String, Object> binds = new HashMap<>(Map.of("partnerId", UUID.randomUUID(), "userId", "u"));
					if (range.from() != null) {
						binds.put("from", range.from());
					}
					if (range.until() != null) {
						binds.put("until", range.until());
					}
					if (after) {
						binds.put("afterAt", at);
						binds.put("afterId", UUID.randomUUID());
					}
					if (limited) {
						binds.put("limit", 101);
					}
					String plan = plans.explain(MetricRepository.listSql(range, after, limited), binds);
					assertThat(plan).as(plan)
						.contains("\"Index Name\": \"metric_records_by_user\"")
						.doesNotContain("Seq Scan")
						.doesNotContain("\"Node Type\": \"Sort\"")
						.containsPattern("\"Index Cond\": \"\\(\\(partner_id = .*user_id = ");
					if (after) {
						assertThat(plan).containsPattern("\"Index Cond\": \"[^\"]*ROW\\(recorded_at, id\\) >");
					}
					if (range.from() != null) {
						assertThat(plan).containsPattern("\"Index Cond\": \"[^\"]*recorded_at >=");
					}
				}
			}
		}
	}

}
