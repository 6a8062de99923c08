package com.healthpartner.api;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;
import com.healthpartner.api.support.TestInfrastructure;
import com.healthpartner.api.support.TestInfrastructure.RestartableDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL goes away under a running service: every health-data endpoint answers 503
 * {@code service_unavailable} with {@code Retry-After} at once (the client gives up after
 * 3 seconds, so a hang fails the test), and when the database is back the same service
 * serves again without a restart. Runs on a database and an instance of its own.
 */
class DatabaseOutageIT {

	private static RestartableDatabase database;

	private static ServiceInstance service;

	@BeforeAll
	static void start() {
		database = TestInfrastructure.restartablePostgres();
		service = ServiceInstance.start(database.database(), Map.of());
	}

	@AfterAll
	static void stop() {
		if (service != null) {
			service.close();
		}
		if (database != null) {
			database.close();
		}
	}

	@Test
	void anOutageIsAQuick503AndTheServiceRecoversByItself() {
		WebTestClient client = service.client().mutate().responseTimeout(Duration.ofSeconds(3)).build();
		Credentials partner = new Partners(service.client()).onboard("loadtest");
		HealthApi api = new HealthApi(client);
		String user = "member-" + UUID.randomUUID();
		String metrics = "{\"user_id\": \"" + user + "\", \"metrics\": {\"weight\": 70}}";
		String before = (String) api.create(HealthApi.METRICS, partner.apiKey(), metrics).get("id");

		database.stop();
		String key = UUID.randomUUID().toString();
		unavailable(api.post(HealthApi.METRICS, partner.apiKey(), metrics, "Idempotency-Key", key));
		unavailable(api.post(HealthApi.ASSESSMENTS, partner.apiKey(),
				"{\"user_id\": \"" + user + "\", \"responses\": {\"a\": 1}}"));
		unavailable(api.get(partner.apiKey(), HealthApi.METRICS + "?user_id={u}", user));
		unavailable(api.get(partner.apiKey(), HealthApi.METRICS + "/{id}", before));
		unavailable(api.get(partner.apiKey(), HealthApi.ASSESSMENTS + "?user_id={u}", user));
		unavailable(client.get()
			.uri(HealthApi.METRICS + "?user_id={u}", user)
			.header("x-api-key", partner.apiKey())
			.accept(MediaType.APPLICATION_NDJSON)
			.exchange());

		database.start();
		// the pool replaces its dead connections by itself; the first requests may still
		// meet one
		int status = Mono
			.fromCallable(() -> api.post(HealthApi.METRICS, partner.apiKey(), metrics, "Idempotency-Key", key)
				.returnResult(String.class)
				.getStatus()
				.value())
			.filter((code) -> code == 201)
			.repeatWhenEmpty(30, (attempts) -> attempts.delayElements(Duration.ofMillis(200)))
			.defaultIfEmpty(503)
			.block(Duration.ofSeconds(30));
		assertThat(status).isEqualTo(201);
		assertThat(api.allPages(partner.apiKey(), HealthApi.METRICS + "?user_id={u}", user)).hasSize(2)
			.extracting((r) -> r.get("id"))
			.contains(before);
		// the request refused during the outage was not kept: the key now means the
		// record made after the outage
		api.post(HealthApi.METRICS, partner.apiKey(), metrics, "Idempotency-Key", key)
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueEquals("Idempotent-Replayed", "true");
	}

	private static void unavailable(WebTestClient.ResponseSpec response) {
		response.expectStatus()
			.isEqualTo(503)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectHeader()
			.exists(HttpHeaders.RETRY_AFTER)
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("service_unavailable");
	}

}
