package com.healthpartner.api.support;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The filter every test client carries: a conforming answer reaches the test untouched, a
 * straying one fails the exchange with the route, the status and what strays.
 */
class ContractValidationTest {

	private static final String ME = """
			{"partner_id": "0b6f1c56-2f43-4a5e-9a0e-3c1f8d2b7e41", "partner_name": "Iron Gym", "plan": "default",
			 "status": "active", "key_id": "5d2e8f7a-1b3c-4d5e-8f9a-0b1c2d3e4f50", "scopes": []}""";

	private static final String ASSESSMENT = """
			{"id": "3c9a4f8e-0d2b-4c6a-9e1f-7b5d3a2c1e0f", "user_id": "u1", "client_record_id": null, "client_record_version": null, "responses": {"a": 1}, "created_at": "2026-11-23T09:31:02.417Z", "updated_at": "2026-11-23T09:31:02.417Z"}""";

	@Test
	void aConformingAnswerReachesTheTestUnchanged() {
		client(ME).get()
			.uri("/api/v1/auth/me")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.plan")
			.isEqualTo("default");
	}

	@Test
	void anUndocumentedFieldFailsTheExchangeNamingRouteStatusAndField() {
		String extra = ME.replace("\"plan\"", "\"internal_score\": 7, \"plan\"");
		Throwable thrown = catchThrowable(() -> client(extra).get().uri("/api/v1/auth/me").exchange());
		assertThat(violation(thrown)).hasMessageContaining("GET /api/v1/auth/me -> 200 does not match")
			.hasMessageContaining("internal_score");
	}

	@Test
	void aStreamFailsAtItsFirstStrayingLine() {
		String stray = ASSESSMENT.replace("\"user_id\"", "\"partner_id\": \"p\", \"user_id\"");
		WebTestClient client = WebTestClient
			.bindToRouterFunction(RouterFunctions.route()
				.GET("/api/v1/health/assessments",
						(request) -> ServerResponse.ok()
							.headers((headers) -> headers.addAll(
									OpenApiContractTest.apiHeaders(MediaType.parseMediaType("application/x-ndjson"))))
							.body(Flux.just(ASSESSMENT + "\n", stray + "\n"), String.class))
				.build())
			.configureClient()
			.filter(ContractValidation.filter())
			.build();
		Flux<String> lines = client.get()
			.uri("/api/v1/health/assessments?user_id=u1")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
		lines.as(StepVerifier::create)
			.thenConsumeWhile((line) -> true)
			.expectErrorSatisfies((error) -> assertThat(violation(error)).hasMessageContaining("line 2")
				.hasMessageContaining("partner_id"))
			.verify();
	}

	private static WebTestClient client(String body) {
		return WebTestClient
			.bindToRouterFunction(RouterFunctions.route()
				.GET("/api/v1/auth/me", (request) -> ServerResponse.ok()
					.headers((headers) -> headers.addAll(OpenApiContractTest.apiHeaders(MediaType.APPLICATION_JSON)))
					.bodyValue(body))
				.build())
			.configureClient()
			.filter(ContractValidation.filter())
			.build();
	}

	private static ContractViolation violation(Throwable thrown) {
		for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
			if (cause instanceof ContractViolation violation) {
				return violation;
			}
		}
		throw new AssertionError("Expected a contract violation, got " + thrown, thrown);
	}

}
