package com.healthpartner.api.access;

import java.net.URI;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.IntegrationTest;

/**
 * The routers match paths decoded and without matrix parameters, so a path written
 * another way reaches the same routes: it must meet the same checks, never pass them by.
 */
class PathDisguisesTest extends IntegrationTest {

	@ParameterizedTest
	@ValueSource(strings = { "/admin;x/v1/partners", "/admin/v1;x/partners", "/%61dmin/v1/partners",
			"/admin/%761/partners", "//admin/v1/partners", "/admin//v1/partners" })
	void anAdminPathWrittenAnotherWayStillNeedsTheAdminToken(String path) {
		Expect.problem(this.client.get().uri(URI.create("http://localhost:" + this.port + path)).exchange(),
				HttpStatus.UNAUTHORIZED, "invalid_admin_token");
	}

	@ParameterizedTest
	@ValueSource(strings = { "/api;x/v1/health/metrics/catalog", "/api/v1;x/health/metrics/catalog",
			"/%61pi/v1/health/metrics/catalog", "//api/v1/health/metrics/catalog", "/api/v1/health/metrics/catalog;x" })
	void aPartnerPathWrittenAnotherWayStillNeedsAKeyAndCarriesTheRateLimit(String path) {
		this.client.get()
			.uri(URI.create("http://localhost:" + this.port + path))
			.exchange()
			.expectStatus()
			.isUnauthorized()
			.expectHeader()
			.exists("X-RateLimit-Remaining")
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("missing_api_key");
	}

	@ParameterizedTest
	@ValueSource(strings = { "/api;x/v1/auth", "/%61pi/v1/auth" })
	void registrationWrittenAnotherWayIsStillLimitedPerAddress(String path) {
		this.client.post()
			.uri(URI.create("http://localhost:" + this.port + path))
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{}")
			.exchange()
			.expectHeader()
			.valueMatches("RateLimit-Policy", ".*\"registration\".*");
	}

}
