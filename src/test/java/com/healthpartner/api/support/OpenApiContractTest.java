package com.healthpartner.api.support;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

/**
 * The contract check has teeth: hand-made answers that stray from the document in one way
 * each are refused with a message naming what strays.
 */
class OpenApiContractTest {

	private static final String ME = """
			{"partner_id": "0b6f1c56-2f43-4a5e-9a0e-3c1f8d2b7e41", "partner_name": "Iron Gym", "plan": "default",
			 "status": "active", "key_id": "5d2e8f7a-1b3c-4d5e-8f9a-0b1c2d3e4f50", "scopes": ["metrics:read"]}""";

	private static final String NOT_FOUND = """
			{"type": "http://localhost:8080/problems/not_found", "title": "Not found", "status": 404,
			 "detail": "No route matches /api/v1/nowhere", "instance": "/api/v1/nowhere", "code": "not_found",
			 "request_id": "r-1"}""";

	private final OpenApiContract contract = OpenApiContract.shared();

	@Test
	void aDocumentedAnswerConforms() {
		assertThat(violations("GET", "/api/v1/auth/me", 200, apiHeaders(MediaType.APPLICATION_JSON), ME)).isEmpty();
	}

	@Test
	void anUndocumentedFieldIsRefused() {
		String extra = ME.replace("\"plan\"", "\"secret_flag\": true, \"plan\"");
		assertThat(violations("GET", "/api/v1/auth/me", 200, apiHeaders(MediaType.APPLICATION_JSON), extra))
			.singleElement(as(STRING))
			.startsWith("body:")
			.contains("secret_flag");
	}

	@Test
	void aFieldOfTheWrongShapeIsRefused() {
		String badScope = ME.replace("metrics:read", "metrics:admin");
		assertThat(violations("GET", "/api/v1/auth/me", 200, apiHeaders(MediaType.APPLICATION_JSON), badScope))
			.anySatisfy((violation) -> assertThat(violation).contains("/scopes/0"));
	}

	@Test
	void anUndocumentedHeaderIsRefused() {
		HttpHeaders headers = apiHeaders(MediaType.APPLICATION_JSON);
		headers.add("X-Powered-By", "Netty");
		assertThat(violations("GET", "/api/v1/auth/me", 200, headers, ME))
			.containsExactly("header X-Powered-By is not documented for this answer");
	}

	@Test
	void anUndocumentedStatusIsRefused() {
		assertThat(violations("GET", "/api/v1/auth/me", 418, apiHeaders(MediaType.APPLICATION_JSON), ME))
			.singleElement(as(STRING))
			.startsWith("status 418 is not documented for GET /api/v1/auth/me (documented: 200, 401, 403, 429");
	}

	@Test
	void aMissingRequiredHeaderIsRefused() {
		HttpHeaders headers = apiHeaders(MediaType.APPLICATION_JSON);
		headers.remove("X-Request-Id");
		headers.remove("Cache-Control");
		assertThat(violations("GET", "/api/v1/auth/me", 200, headers, ME)).containsExactlyInAnyOrder(
				"required header X-Request-Id is missing", "required header Cache-Control is missing");
	}

	@Test
	void aHeaderValueOutsideItsSchemaIsRefused() {
		HttpHeaders headers = apiHeaders(MediaType.APPLICATION_JSON);
		headers.set("X-RateLimit-Remaining", "-1");
		headers.set("X-RateLimit-Reset", "soon");
		assertThat(violations("GET", "/api/v1/auth/me", 200, headers, ME)).hasSize(2)
			.anySatisfy((violation) -> assertThat(violation).startsWith("header X-RateLimit-Remaining:"))
			.contains("header X-RateLimit-Reset: 'soon' is not integer");
	}

	@Test
	void aProblemCodeTheRouteCannotGiveIsRefused() {
		String problem = NOT_FOUND.replace("not_found", "invalid_date_range")
			.replace("404", "400")
			.replace("/api/v1/nowhere", "/api/v1/auth");
		assertThat(violations("POST", "/api/v1/auth", 400, apiHeaders(MediaType.APPLICATION_PROBLEM_JSON), problem))
			.anySatisfy(
					(violation) -> assertThat(violation).startsWith("body at /code:").contains("validation_failed"));
	}

	@Test
	void aBodyWhereNoneIsDocumentedIsRefused() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("X-Request-Id", "r-1");
		headers.set("Cache-Control", "no-store");
		assertThat(violations("DELETE", "/admin/v1/partners/p/keys/k", 204, headers, "{}"))
			.containsExactly("a body was sent where the document describes none");
		assertThat(violations("DELETE", "/admin/v1/partners/p/keys/k", 204, headers, "")).isEmpty();
	}

	@Test
	void anUnknownPathMustAnswerAProblem() {
		HttpHeaders problem = apiHeaders(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(violations("GET", "/api/v1/nowhere", 404, problem, NOT_FOUND)).isEmpty();
		assertThat(violations("GET", "/api/v1/nowhere", 200, apiHeaders(MediaType.APPLICATION_JSON), "{}"))
			.containsExactly("the path is not in the document, yet it was answered 200");
		assertThat(violations("GET", "/api/v1/nowhere", 404, apiHeaders(MediaType.TEXT_HTML), "<p>no</p>"))
			.containsExactly(
					"the path is not in the document, so the answer must be application/problem+json, not text/html");
		assertThat(violations("GET", "/api/v1/nowhere", 404, problem,
				NOT_FOUND.replace("\"code\"", "\"hint\": 1, \"code\"")))
			.anySatisfy((violation) -> assertThat(violation).contains("hint"));
	}

	@Test
	void aWrongMethodMustNameTheDocumentedMethodsInAllow() {
		String problem = NOT_FOUND.replace("not_found", "method_not_allowed").replace("404", "405");
		HttpHeaders headers = apiHeaders(MediaType.APPLICATION_PROBLEM_JSON);
		headers.set("Allow", "GET");
		assertThat(violations("DELETE", "/api/v1/auth/me", 405, headers, problem)).isEmpty();
		headers.set("Allow", "DELETE, GET");
		assertThat(violations("DELETE", "/api/v1/auth/me", 405, headers, problem))
			.containsExactly("Allow: DELETE, GET differs from the methods documented for /api/v1/auth/me [GET]");
		headers.remove("Allow");
		assertThat(violations("DELETE", "/api/v1/auth/me", 405, headers, problem))
			.containsExactly("required header Allow is missing");
	}

	@Test
	void eachNdjsonLineIsCheckedAgainstTheRecordSchema() {
		String good = """
				{"id": "3c9a4f8e-0d2b-4c6a-9e1f-7b5d3a2c1e0f", "user_id": "u1", "client_record_id": null, "client_record_version": null, "responses": {"a": 1}, "created_at": "2026-11-23T09:31:02.417Z", "updated_at": "2026-11-23T09:31:02.417Z"}""";
		String extra = good.replace("\"user_id\"", "\"partner_id\": \"p\", \"user_id\"");
		assertThat(violations("GET", "/api/v1/health/assessments", 200,
				apiHeaders(MediaType.parseMediaType("application/x-ndjson")), good + "\n" + extra + "\n"))
			.singleElement(as(STRING))
			.startsWith("line 2:")
			.contains("partner_id");
	}

	@Test
	void theMetricBoundsOfTheContractApplyToAnswers() {
		String record = """
				{"id": "9e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4", "user_id": "u1", "metrics": {"weight": 900, "steps": 100.0},
				 "recorded_at": "2026-11-23T06:15:00.000Z", "created_at": "2026-11-23T09:32:10.905Z",
				 "client_record_id": "scale-1", "client_record_version": 3, "updated_at": "2026-11-23T09:32:10.905Z"}""";
		assertThat(violations("GET", "/api/v1/health/metrics/9e8d7c6b-5a49-4382-a1b0-c9d8e7f6a5b4", 200,
				apiHeaders(MediaType.APPLICATION_JSON), record))
			.singleElement(as(STRING))
			.contains("/metrics/weight");
	}

	private List<String> violations(String method, String path, int status, HttpHeaders headers, String body) {
		return this.contract
			.violations(new ObservedResponse(method, path, status, headers, body.getBytes(StandardCharsets.UTF_8)));
	}

	static HttpHeaders apiHeaders(MediaType contentType) {
		HttpHeaders headers = new HttpHeaders();
		headers.setContentType(contentType);
		headers.set("X-Request-Id", "r-1");
		headers.set("Cache-Control", "no-store");
		headers.set("X-RateLimit-Limit", "60");
		headers.set("X-RateLimit-Remaining", "59");
		headers.set("X-RateLimit-Reset", "1795000000");
		headers.set("RateLimit-Policy", "\"default\";q=60;w=60");
		headers.set("RateLimit", "\"default\";r=59;t=60");
		return headers;
	}

}
