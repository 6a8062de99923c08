package com.healthpartner.api.system;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.SeparateJvmInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service as {@code ./mvnw spring-boot:run} runs it, with its embedded PostgreSQL,
 * stopped by SIGTERM right after a write and a read: the audit events still waiting in
 * their batch are written before the embedded PostgreSQL stops (it stops with the
 * application, not on a shutdown hook of its own that raced the last writes).
 */
class DevelopmentRunIT {

	@Test
	void stoppedBySigtermItWritesItsLastAuditEventsBeforeItsDatabaseStops(@TempDir Path data) throws Exception {
		SeparateJvmInstance instance = SeparateJvmInstance.launchDevelopment("development-run", data).awaitReady();
		Credentials partner;
		String user = "member-" + UUID.randomUUID();
		try {
			WebTestClient client = WebTestClient.bindToServer()
				.baseUrl(instance.baseUrl())
				.responseTimeout(Duration.ofSeconds(30))
				.build();
			partner = new Partners(client).onboard("default");
			client.post()
				.uri("/api/v1/health/metrics")
				.header("x-api-key", partner.apiKey())
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue("{\"user_id\": \"" + user + "\", \"metrics\": {\"weight\": 72.5}}")
				.exchange()
				.expectStatus()
				.isCreated();
			client.get()
				.uri("/api/v1/health/metrics?user_id=" + user)
				.header("x-api-key", partner.apiKey())
				.exchange()
				.expectStatus()
				.isOk();
		}
		finally {
			instance.close();
		}
		assertThat(instance.isAlive()).isFalse();

		try (EmbeddedPostgres postgres = EmbeddedPostgres.builder()
			.setDataDirectory(data.resolve("postgres"))
			.setCleanDataDirectory(false)
			.start(); Connection connection = postgres.getPostgresDatabase().getConnection()) {
			assertThat(auditTrail(connection, partner.partnerId(), user)).containsExactly("write metrics",
					"read metrics");
		}
	}

	private static List<String> auditTrail(Connection connection, String partnerId, String user) throws Exception {
		List<String> events = new ArrayList<>();
		try (PreparedStatement query = connection.prepareStatement(
				"select action, resource from audit_events where partner_id = ? and user_id = ? order by at, id")) {
			query.setObject(1, UUID.fromString(partnerId));
			query.setString(2, user);
			try (ResultSet rows = query.executeQuery()) {
				while (rows.next()) {
					events.add(rows.getString(1) + " " + rows.getString(2));
				}
			}
		}
		return events;
	}

}
