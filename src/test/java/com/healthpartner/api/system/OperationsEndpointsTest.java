package com.healthpartner.api.system;

import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operator's probes and scraper see: health groups and Prometheus metrics, with
 * no API key.
 */
class OperationsEndpointsTest extends IntegrationTest {

	@Test
	void livenessAndReadinessAnswerWithoutAKey() {
		for (String probe : new String[] { "/actuator/health/liveness", "/actuator/health/readiness" }) {
			this.client.get()
				.uri(probe)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.status")
				.isEqualTo("UP");
		}
	}

	@Test
	void readinessIncludesTheDatabase() {
		this.client.get()
			.uri("/actuator/health/readiness")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.components.r2dbc.status")
			.isEqualTo("UP");
	}

	@Test
	void prometheusShowsLatencyHistogramsPerRouteAndStatusAndRejectionsByReason() {
		Credentials partner = this.partners.onboard();
		this.client.get().uri("/api/v1/auth/me").header("x-api-key", partner.apiKey()).exchange().expectStatus().isOk();
		this.client.get()
			.uri("/api/v1/auth/me")
			.header("x-api-key", "hpk_" + "0".repeat(32))
			.exchange()
			.expectStatus()
			.isUnauthorized();
		this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"email\": 42}")
			.exchange()
			.expectStatus()
			.isBadRequest();

		// the scrape grows with every route and status the shared context has served
		String metrics = this.client.mutate()
			.codecs((codecs) -> codecs.defaultCodecs().maxInMemorySize(16 * 1024 * 1024))
			.build()
			.get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat(metrics).containsPattern(
				"http_server_requests_seconds_bucket\\{[^}]*status=\"200\"[^}]*uri=\"/api/v1/auth/me\"[^}]*le=\"[0-9.]+\"[^}]*\\} [1-9]")
			.containsPattern("api_rejections_total\\{code=\"invalid_api_key\",reason=\"auth\"\\} [1-9]")
			.containsPattern("api_rejections_total\\{code=\"validation_failed\",reason=\"validation\"\\} [1-9]");
	}

}
