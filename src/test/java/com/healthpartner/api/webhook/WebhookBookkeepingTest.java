package com.healthpartner.api.webhook;

import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;

/**
 * The deliveries' bookkeeping plans each statement for its values and commits without
 * waiting for the disk; every other statement keeps the connection's generic plan.
 */
class WebhookBookkeepingTest extends IntegrationTest {

	@Autowired
	private WebhookRepository webhooks;

	@Autowired
	private DatabaseClient db;

	@Test
	void plansItsStatementsForTheirValuesAndTheRestKeepsGenericPlans() {
		this.webhooks.bookkeeping(settings())
			.as(StepVerifier::create)
			.expectNext(List.of("force_custom_plan", "off"))
			.verifyComplete();
		// (the tests' database commits without waiting for the disk throughout)
		settings().map((settings) -> settings.get(0))
			.as(StepVerifier::create)
			.expectNext("force_generic_plan")
			.verifyComplete();
	}

	private Mono<List<String>> settings() {
		return this.db
			.sql("select current_setting('plan_cache_mode') as plans, current_setting('synchronous_commit') as sync")
			.map((row) -> List.of(row.get("plans", String.class), row.get("sync", String.class)))
			.one();
	}

}
