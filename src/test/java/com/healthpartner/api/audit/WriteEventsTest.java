package com.healthpartner.api.audit;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A write's audit event is committed with the record: once the {@code 201} is sent, the
 * event is stored (nothing waits in memory for a crash to lose), and a replay adds none.
 */
class WriteEventsTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Test
	void anAcknowledgedWriteHasItsAuditEventStoredAlready() {
		Credentials partner = this.partners.onboard("loadtest");
		HealthApi api = new HealthApi(this.client);
		String user = "member-" + UUID.randomUUID();
		String body = "{\"user_id\":\"" + user + "\",\"metrics\":{\"weight\":70}}";
		api.post(HealthApi.METRICS, partner.apiKey(), body, "Idempotency-Key", "k-" + user).expectStatus().isCreated();
		assertThat(events(user)).isOne();
		api.post(HealthApi.METRICS, partner.apiKey(), body, "Idempotency-Key", "k-" + user).expectStatus().isCreated();
		api.post(HealthApi.ASSESSMENTS, partner.apiKey(), "{\"user_id\":\"" + user + "\",\"responses\":{\"a\":1}}")
			.expectStatus()
			.isCreated();
		assertThat(events(user)).isEqualTo(2);
	}

	private long events(String user) {
		return this.db.sql("select count(*) from audit_events where user_id = :user and action = 'write'")
			.bind("user", user)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block();
	}

}
