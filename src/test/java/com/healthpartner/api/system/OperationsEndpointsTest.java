package com.healthpartner.api.system;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.LoggerContext;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

		assertThat(scrape()).containsPattern(
				"http_server_requests_seconds_bucket\\{[^}]*status=\"200\"[^}]*uri=\"/api/v1/auth/me\"[^}]*le=\"[0-9.]+\"[^}]*\\} [1-9]")
			.containsPattern("api_rejections_total\\{code=\"invalid_api_key\",reason=\"auth\"\\} [1-9]")
			.containsPattern("api_rejections_total\\{code=\"validation_failed\",reason=\"validation\"\\} [1-9]");
	}

	@Test
	void prometheusCountsTheLogEventsWrittenByLevelWithoutATurboFilter() {
		Logger log = LoggerFactory.getLogger(OperationsEndpointsTest.class);
		double warnings = logEvents(scrape(), "warn");
		double debugs = logEvents(scrape(), "debug");
		log.warn("one warning, counted");
		log.warn("another warning, counted");
		// below the logger's level (INFO): not written, not counted
		log.debug("not written");
		String metrics = scrape();
		assertThat(logEvents(metrics, "warn")).isGreaterThanOrEqualTo(warnings + 2);
		assertThat(logEvents(metrics, "debug")).isEqualTo(debugs);
		// counted by an appender: Logback has no filter to ask on every level check
		assertThat(((LoggerContext) LoggerFactory.getILoggerFactory()).getTurboFilterList()).isEmpty();
	}

	private static double logEvents(String metrics, String level) {
		Matcher value = Pattern.compile("(?m)^logback_events_total\\{level=\"" + level + "\"\\} (\\S+)$")
			.matcher(metrics);
		assertThat(value.find()).as("logback_events_total of level %s in the scrape", level).isTrue();
		return Double.parseDouble(value.group(1));
	}

	private String scrape() {
		// the scrape grows with every route and status the shared context has served
		return this.client.mutate()
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
	}

}
