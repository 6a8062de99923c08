package com.healthpartner.api.records;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.QueryPlans;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every variant of a kind's list query (with or without dates for a dated kind, cursor
 * and limit) is one range scan of the kind's (partner, user, ordered by, id) index that
 * already yields the order: no sequential scan and no sort, whatever the table holds.
 */
class ListQueryPlanTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Autowired
	private TransactionalOperator transaction;

	@ParameterizedTest
	@MethodSource("com.healthpartner.api.support.Kinds#all")
	void everyListQueryIsAnOrderedIndexRangeScan(RecordKind kind) {
		QueryPlans plans = new QueryPlans(this.db, this.transaction);
		Instant at = Instant.parse("2026-01-01T00:00:00Z");
		String index = kind.table() + "_by_user";
		String column = kind.dated() ? "recorded_at" : "created_at";
		for (int bits = 0; bits < (kind.dated() ? 16 : 4); bits++) {
			boolean limited = (bits & 1) != 0;
			boolean after = (bits & 2) != 0;
			boolean from = (bits & 4) != 0;
			boolean until = (bits & 8) != 0;
			Map<String, Object> binds = new HashMap<>(Map.of("partnerId", UUID.randomUUID(), "userId", "u"));
			if (from) {
				binds.put("from", at);
			}
			if (until) {
				binds.put("until", at.plusSeconds(86_400));
			}
			if (after) {
				binds.put("afterAt", at);
				binds.put("afterId", UUID.randomUUID());
			}
			if (limited) {
				binds.put("limit", 101);
			}
			String plan = plans.explain(RecordRepository.listSql(kind, from, until, after, limited), binds);
			assertThat(plan).as(plan)
				.contains("\"Index Name\": \"" + index + "\"")
				.doesNotContain("Seq Scan")
				.doesNotContain("\"Node Type\": \"Sort\"")
				.containsPattern("\"Index Cond\": \"\\(\\(partner_id = .*user_id = ");
			if (after) {
				assertThat(plan).containsPattern("\"Index Cond\": \"[^\"]*ROW\\(" + column + ", id\\) >");
			}
			if (from) {
				assertThat(plan).containsPattern("\"Index Cond\": \"[^\"]*" + column + " >=");
			}
		}
	}

}
