package com.healthpartner.api;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.FreezableProxy;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;
import com.healthpartner.api.support.TestInfrastructure;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL stops answering without closing its connections (a frozen server, a network
 * that drops packets): requests still end, with 503 {@code service_unavailable}, at the
 * request deadline (3 s here; the client gives up after 8 s, so a hang fails the test),
 * and the service serves again when the database answers again.
 */
class FrozenDatabaseIT {

	private static FreezableProxy proxy;

	private static ServiceInstance service;

	@BeforeAll
	static void start() {
		TestInfrastructure.Database shared = TestInfrastructure.postgres();
		proxy = new FreezableProxy(shared.host(), shared.port());
		TestInfrastructure.Database throughProxy = new TestInfrastructure.Database("127.0.0.1", proxy.port(),
				shared.name(), shared.username(), shared.password(), null);
		service = ServiceInstance.start(throughProxy, Map.of("app.request-timeout", "3s"));
	}

	@AfterAll
	static void stop() {
		if (service != null) {
			service.close();
		}
		if (proxy != null) {
			proxy.close();
		}
	}

	@Test
	void aDatabaseThatStopsAnsweringGivesA503AtTheDeadlineNotAHang() {
		WebTestClient client = service.client().mutate().responseTimeout(Duration.ofSeconds(8)).build();
		Credentials partner = new Partners(service.client()).onboard("loadtest");
		HealthApi api = new HealthApi(client);
		String user = "member-" + UUID.randomUUID();
		String metrics = "{\"user_id\": \"" + user + "\", \"metrics\": {\"weight\": 70}}";
		api.create(HealthApi.METRICS, partner.apiKey(), metrics);
		Credentials unused = new Partners(service.client()).issueKey(partner.partnerId(), Map.of());

		proxy.freeze();
		// a key not cached yet: the 503 comes while it is being looked up, with the
		// rate-limit headers of every answer (checked against the document)
		api.get(unused.apiKey(), HealthApi.METRICS + "?user_id={u}", user)
			.expectStatus()
			.isEqualTo(503)
			.expectHeader()
			.exists("X-RateLimit-Remaining");
		api.get(partner.apiKey(), HealthApi.METRICS + "?user_id={u}", user)
			.expectStatus()
			.isEqualTo(503)
			.expectHeader()
			.exists("Retry-After")
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("service_unavailable");
		api.post(HealthApi.METRICS, partner.apiKey(), metrics)
			.expectStatus()
			.isEqualTo(503)
			.expectBody()
			.jsonPath("$.detail")
			.value(String.class, (detail) -> assertThat(detail).contains("Idempotency-Key"));

		proxy.thaw();
		int status = Mono
			.fromCallable(() -> api.get(partner.apiKey(), HealthApi.METRICS + "?user_id={u}", user)
				.returnResult(String.class)
				.getStatus()
				.value())
			.filter((answer) -> answer == 200)
			.repeatWhenEmpty(30, (attempts) -> attempts.delayElements(Duration.ofMillis(200)))
			.block(Duration.ofSeconds(20));
		assertThat(status).isEqualTo(200);
	}

}
