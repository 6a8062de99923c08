package com.healthpartner.api.problem;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every refusal is problem+json with a stable code and the request id, whether a handler,
 * a filter or the framework refused; and a refused registration writes nothing.
 */
class ProblemAnswersTest extends IntegrationTest {

	@Test
	void aRegistrationWithBadFieldsListsEveryOneAndIsNotStored() {
		String email = "not-an-email-" + UUID.randomUUID();
		this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("email", email, "partner_name", " ", "website", "x"))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("validation_failed")
			.jsonPath("$.status")
			.isEqualTo(400)
			.jsonPath("$.instance")
			.isEqualTo("/api/v1/auth")
			.jsonPath("$.detail")
			.isEqualTo("3 fields are invalid")
			.jsonPath("$.errors[*].field")
			.value((List<String> fields) -> assertThat(fields).containsExactlyInAnyOrder("email", "partner_name",
					"website"));
		Partners.admin(this.client.get().uri("/admin/v1/registrations?limit=1000"))
			.exchange()
			.expectBody(String.class)
			.value((body) -> assertThat(body).doesNotContain(email));
	}

	@Test
	void missingAndWronglyTypedFieldsAreNamed() {
		this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("email", 42))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[?(@.field == 'email')].message")
			.isEqualTo("must be a string")
			.jsonPath("$.errors[?(@.field == 'partner_name')].message")
			.isEqualTo("is required");
		this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("email", "x".repeat(250) + "@a.example", "partner_name", "n".repeat(201)))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors.length()")
			.isEqualTo(2);
	}

	@Test
	void aBodyThatIsNotJsonIsUnsupportedMediaType() {
		this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.TEXT_PLAIN)
			.bodyValue("email=a@b.example")
			.exchange()
			.expectStatus()
			.isEqualTo(415)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("unsupported_media_type");
	}

	@Test
	void aBodyOverTheLimitIsPayloadTooLarge() {
		String huge = "{\"email\":\"" + "a".repeat(70_000) + "\"}";
		Expect.problem(this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(huge)
			.exchange(), HttpStatus.CONTENT_TOO_LARGE, "payload_too_large");
	}

	@Test
	void malformedDuplicateAndTooDeepJsonIsMalformed() {
		String deep = "{\"a\":" + "[".repeat(32) + "]".repeat(32) + "}";
		for (String body : List.of("{\"email\": ", "{\"email\":\"a@b.example\",\"email\":\"c@d.example\"}", deep,
				"{} {}", "")) {
			Expect.problem(this.client.post()
				.uri("/api/v1/auth")
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(body)
				.exchange(), HttpStatus.BAD_REQUEST, "malformed_json");
		}
		String deepButAllowed = "{\"email\":" + "[".repeat(31) + "]".repeat(31) + "}";
		Expect.problem(this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(deepButAllowed)
			.exchange(), HttpStatus.BAD_REQUEST, "validation_failed");
	}

	@Test
	void aJsonArrayIsNotAnObject() {
		this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("[{\"email\":\"a@b.example\"}]")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("body");
	}

	@Test
	void unknownRoutesAreNotFoundOnceAuthenticated() {
		Expect.problem(this.client.get().uri("/api/v1/nowhere").exchange(), HttpStatus.UNAUTHORIZED, "missing_api_key");
		Credentials partner = this.partners.onboard();
		this.client.get()
			.uri("/api/v1/nowhere")
			.header("x-api-key", partner.apiKey())
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("not_found")
			.jsonPath("$.instance")
			.isEqualTo("/api/v1/nowhere");
		this.client.get().uri("/nowhere").exchange().expectStatus().isNotFound();
	}

	@Test
	void aWrongMethodIsMethodNotAllowedWithAllow() {
		Credentials partner = this.partners.onboard();
		Expect
			.notAllowed(this.client.delete().uri("/api/v1/auth/me").header("x-api-key", partner.apiKey()).exchange(),
					"GET")
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("method_not_allowed");
		Expect.notAllowed(
				Partners.admin(this.client.put().uri("/admin/v1/partners/{id}", partner.partnerId())).exchange(),
				"GET, PATCH");
	}

	@Test
	void aSaneRequestIdIsEchoedAndAnyOtherReplaced() {
		this.client.get()
			.uri("/api/v1/auth/me")
			.header("X-Request-Id", "trace-42.a_b")
			.exchange()
			.expectHeader()
			.valueEquals("X-Request-Id", "trace-42.a_b")
			.expectBody()
			.jsonPath("$.request_id")
			.isEqualTo("trace-42.a_b");
		this.client.get()
			.uri("/api/v1/auth/me")
			.header("X-Request-Id", "bad id with spaces")
			.exchange()
			.expectHeader()
			.value("X-Request-Id", (id) -> assertThat(id).matches("[0-9a-f-]{36}"));
		this.client.get()
			.uri("/api/v1/auth/me")
			.header("X-Request-Id", "x".repeat(129))
			.exchange()
			.expectHeader()
			.value("X-Request-Id", (id) -> assertThat(id).hasSize(36));
	}

	@Test
	void eachProblemTypeHasAPage() {
		for (ProblemType type : ProblemType.values()) {
			this.client.get()
				.uri("/problems/{code}", type.code())
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.contentTypeCompatibleWith(MediaType.TEXT_HTML)
				.expectBody(String.class)
				.value((page) -> assertThat(page).contains(type.code()).contains(type.title()));
		}
		this.client.get().uri("/problems/no_such_problem").exchange().expectStatus().isNotFound();
	}

	@Test
	void adminRoutesNeedTheAdminTokenAndNothingElse() {
		Credentials partner = this.partners.onboard();
		Expect.problem(this.client.get().uri("/admin/v1/partners").exchange(), HttpStatus.UNAUTHORIZED,
				"invalid_admin_token");
		this.client.get()
			.uri("/admin/v1/partners")
			.header(HttpHeaders.AUTHORIZATION, "Bearer wrong-token-0123456789")
			.exchange()
			.expectStatus()
			.isUnauthorized();
		Expect.problem(this.client.get()
			.uri("/admin/v1/partners")
			.header(HttpHeaders.AUTHORIZATION, "Bearer " + partner.apiKey())
			.header("x-api-key", partner.apiKey())
			.exchange(), HttpStatus.UNAUTHORIZED, "invalid_admin_token");
		this.client.get().uri("/admin/v1/nothing-here").exchange().expectStatus().isUnauthorized();
	}

	@Test
	void theAdminTokenDoesNotOpenThePartnerApi() {
		Expect.problem(this.client.get()
			.uri("/api/v1/auth/me")
			.header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
			.exchange(), HttpStatus.UNAUTHORIZED, "missing_api_key");
		Expect.problem(this.client.get().uri("/api/v1/auth/me").header("x-api-key", ADMIN_TOKEN).exchange(),
				HttpStatus.UNAUTHORIZED, "invalid_api_key");
	}

	@Test
	void adminListsPageWithOpaqueCursorsThatCannotBeTamperedWith() {
		for (int i = 0; i < 3; i++) {
			this.partners.onboard();
		}
		Map<?, ?> first = Partners.admin(this.client.get().uri("/admin/v1/partners?limit=2"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody();
		assertThat((List<?>) first.get("data")).hasSize(2);
		String cursor = (String) first.get("next_cursor");
		assertThat(cursor).isNotNull();
		Map<?, ?> second = Partners.admin(this.client.get().uri("/admin/v1/partners?limit=2&cursor=" + cursor))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody();
		assertThat(((List<?>) second.get("data")).get(0)).isNotIn((List<?>) first.get("data"));
		String tampered = cursor.substring(0, 5) + ((cursor.charAt(5) == 'A') ? 'B' : 'A') + cursor.substring(6);
		Partners.admin(this.client.get().uri("/admin/v1/partners?cursor=" + tampered))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("cursor");
		Partners.admin(this.client.get().uri("/admin/v1/registrations?cursor=" + cursor))
			.exchange()
			.expectStatus()
			.isBadRequest();
		Partners.admin(this.client.get().uri("/admin/v1/partners?limit=0"))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("limit");
	}

}
