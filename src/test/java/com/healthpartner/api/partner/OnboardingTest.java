package com.healthpartner.api.partner;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.TestBeans;

import static org.assertj.core.api.Assertions.assertThat;

class OnboardingTest extends IntegrationTest {

	@Test
	void aRegisteredPartnerIsListedApprovedAndItsKeyOpensTheApi() {
		String email = "Front.Desk+" + UUID.randomUUID() + "@Gym.example";
		this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("email", "  " + email + " ", "partner_name", " Iron Gym "))
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectHeader()
			.exists("X-Request-Id")
			.expectBody()
			.jsonPath("$.registration_id")
			.isNotEmpty()
			.jsonPath("$.status")
			.isEqualTo("pending")
			.jsonPath("$.email")
			.isEqualTo(email)
			.jsonPath("$.partner_name")
			.isEqualTo("Iron Gym")
			.jsonPath("$.created_at")
			.value(String.class, (createdAt) -> assertThat(createdAt)
				.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));

		List<Map<String, Object>> pending = pendingRegistrations();
		Map<String, Object> mine = pending.stream()
			.filter((r) -> email.equals(r.get("email")))
			.findFirst()
			.orElseThrow();
		String registrationId = (String) mine.get("registration_id");

		Credentials credentials = this.partners.approve(registrationId,
				Map.of("plan", "enterprise", "scopes", List.of("metrics:read", "assessments:read")));
		assertThat(credentials.apiKey()).matches("hpk_[0-9A-Za-z]{32}");
		assertThat(credentials.apiSecret()).matches("hps_[0-9A-Za-z]{40}");
		assertThat(credentials.scopes()).containsExactly("assessments:read", "metrics:read");
		assertThat(pendingRegistrations()).noneMatch((r) -> registrationId.equals(r.get("registration_id")));

		this.client.get()
			.uri("/api/v1/auth/me")
			.header("x-api-key", credentials.apiKey())
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("Cache-Control", "no-store")
			.expectBody()
			.jsonPath("$.partner_id")
			.isEqualTo(credentials.partnerId())
			.jsonPath("$.partner_name")
			.isEqualTo("Iron Gym")
			.jsonPath("$.plan")
			.isEqualTo("enterprise")
			.jsonPath("$.status")
			.isEqualTo("active")
			.jsonPath("$.key_id")
			.isEqualTo(credentials.keyId())
			.jsonPath("$.scopes")
			.isEqualTo(List.of("assessments:read", "metrics:read"));
	}

	@Test
	void approvalWithoutScopesGrantsAllFourOnTheDefaultPlan() {
		String registration = this.partners.register("all+" + UUID.randomUUID() + "@clinic.example", "Clinic");
		Credentials credentials = this.partners.approve(registration, Map.of());
		assertThat(credentials.plan()).isEqualTo("default");
		assertThat(credentials.scopes()).containsExactly("assessments:read", "assessments:write", "metrics:read",
				"metrics:write");
	}

	@Test
	void registeringTwiceWithTheSameEmailIsAConflictWhateverTheCase() {
		String email = "twice+" + UUID.randomUUID() + "@gym.example";
		this.partners.register(email, "Gym");
		this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("email", email.toUpperCase(), "partner_name", "Gym again"))
			.exchange()
			.expectStatus()
			.isEqualTo(409)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("registration_exists")
			.jsonPath("$.type")
			.isEqualTo("http://localhost:8080/problems/registration_exists");
	}

	@Test
	void aRejectedEmailMayRegisterAgain() {
		String email = "again+" + UUID.randomUUID() + "@gym.example";
		String first = this.partners.register(email, "Gym");
		Partners.admin(this.client.post().uri("/admin/v1/registrations/{id}/reject", first))
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("reason", "incomplete details"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("rejected")
			.jsonPath("$.reason")
			.isEqualTo("incomplete details");
		this.partners.register(email, "Gym");
	}

	@Test
	void approvingARegistrationThatIsNotPendingIsAConflict() {
		String registration = this.partners.register("late+" + UUID.randomUUID() + "@gym.example", "Gym");
		this.partners.approve(registration, Map.of());
		Expect.problem(Partners.admin(this.client.post().uri("/admin/v1/registrations/{id}/approve", registration))
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of())
			.exchange(), HttpStatus.CONFLICT, "conflict");
		Partners.admin(this.client.post().uri("/admin/v1/registrations/{id}/reject", registration))
			.exchange()
			.expectStatus()
			.isEqualTo(409);
		Expect.problem(Partners.admin(this.client.post().uri("/admin/v1/registrations/{id}/approve", UUID.randomUUID()))
			.exchange(), HttpStatus.NOT_FOUND, "not_found");
	}

	@Test
	void approvalWithAnUnknownPlanOrScopeIsRefusedAndLeavesTheRegistrationPending() {
		String registration = this.partners.register("bad+" + UUID.randomUUID() + "@gym.example", "Gym");
		Expect
			.problem(Partners.admin(this.client.post().uri("/admin/v1/registrations/{id}/approve", registration))
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Map.of("plan", "gold", "scopes", List.of("metrics:read", "everything"), "extra", 1))
				.exchange(), HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[*].field")
			.value((List<String> fields) -> assertThat(fields).containsExactlyInAnyOrder("extra", "plan", "scopes[1]"));
		assertThat(pendingRegistrations()).anyMatch((r) -> registration.equals(r.get("registration_id")));
	}

	@Test
	void revokingAKeyClosesItOnTheNextRequestWhileARotatedKeyKeepsWorking() {
		Credentials first = this.partners.onboard();
		Credentials second = this.partners.issueKey(first.partnerId(), Map.of());
		assertThat(second.apiKey()).isNotEqualTo(first.apiKey());
		me(first.apiKey()).expectStatus().isOk();
		me(second.apiKey()).expectStatus().isOk().expectBody().jsonPath("$.key_id").isEqualTo(second.keyId());

		Partners.admin(this.client.delete().uri("/admin/v1/partners/{id}/keys/{key}", first.partnerId(), first.keyId()))
			.exchange()
			.expectStatus()
			.isNoContent();

		me(first.apiKey()).expectStatus().isUnauthorized().expectBody().jsonPath("$.code").isEqualTo("invalid_api_key");
		me(second.apiKey()).expectStatus().isOk();
		Partners.admin(this.client.get().uri("/admin/v1/partners/{id}", first.partnerId()))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.keys.length()")
			.isEqualTo(2)
			.jsonPath("$.keys[0].revoked_at")
			.isNotEmpty()
			.jsonPath("$.keys[0].prefix")
			.isEqualTo(first.apiKey().substring(0, 12))
			.jsonPath("$.keys[1].revoked_at")
			.doesNotExist();
	}

	@Test
	void revokingAnUnknownKeyIsNotFound() {
		Credentials partner = this.partners.onboard();
		Credentials other = this.partners.onboard();
		Partners
			.admin(this.client.delete().uri("/admin/v1/partners/{id}/keys/{key}", partner.partnerId(), other.keyId()))
			.exchange()
			.expectStatus()
			.isNotFound();
		me(other.apiKey()).expectStatus().isOk();
	}

	@Test
	void aSuspendedPartnerIsRefusedUntilReactivated() {
		Credentials partner = this.partners.onboard();
		me(partner.apiKey()).expectStatus().isOk();
		this.partners.patch(partner.partnerId(), Map.of("status", "suspended"));
		me(partner.apiKey()).expectStatus()
			.isForbidden()
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("partner_suspended");
		this.partners.patch(partner.partnerId(), Map.of("status", "active"));
		me(partner.apiKey()).expectStatus().isOk();
	}

	@Test
	void aKeyWithoutTheRoutesScopeIsRefusedNamingTheScope() {
		Credentials reader = this.partners.onboard("default", "metrics:read");
		Expect
			.problem(this.client.get().uri(TestBeans.SCOPED_PATH).header("x-api-key", reader.apiKey()).exchange(),
					HttpStatus.FORBIDDEN, "insufficient_scope")
			.jsonPath("$.detail")
			.value((String detail) -> assertThat(detail).contains("metrics:write"));
		Credentials writer = this.partners.onboard("default", "metrics:write");
		this.client.get()
			.uri(TestBeans.SCOPED_PATH)
			.header("x-api-key", writer.apiKey())
			.exchange()
			.expectStatus()
			.isOk();
	}

	@Test
	void narrowingThePartnersScopesNarrowsItsKeysOnTheNextRequest() {
		Credentials partner = this.partners.onboard();
		this.client.get()
			.uri(TestBeans.SCOPED_PATH)
			.header("x-api-key", partner.apiKey())
			.exchange()
			.expectStatus()
			.isOk();
		this.partners.patch(partner.partnerId(), Map.of("scopes", List.of("metrics:read")));
		this.client.get()
			.uri(TestBeans.SCOPED_PATH)
			.header("x-api-key", partner.apiKey())
			.exchange()
			.expectStatus()
			.isForbidden();
		me(partner.apiKey()).expectStatus().isOk().expectBody().jsonPath("$.scopes").isEqualTo(List.of("metrics:read"));
	}

	@Test
	void aKeyExpiresAtItsExpiryTime() {
		Credentials partner = this.partners.onboard();
		String expiry = java.time.Instant.now().plusSeconds(3600).toString();
		Credentials expiring = this.partners.issueKey(partner.partnerId(), Map.of("expires_at", expiry));
		me(expiring.apiKey()).expectStatus().isOk();
		this.clock.advance(Duration.ofHours(2));
		try {
			me(expiring.apiKey()).expectStatus()
				.isUnauthorized()
				.expectBody()
				.jsonPath("$.code")
				.isEqualTo("invalid_api_key");
		}
		finally {
			this.clock.advance(Duration.ofHours(-2));
		}
	}

	@Test
	void keysOutsideThePartnersScopesCannotBeIssued() {
		Credentials partner = this.partners.onboard("default", "metrics:read");
		Partners.admin(this.client.post().uri("/admin/v1/partners/{id}/keys", partner.partnerId()))
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("scopes", List.of("metrics:write"), "expires_at", "2001-01-01T00:00:00Z"))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[*].field")
			.value((List<String> fields) -> assertThat(fields).containsExactly("expires_at"));
		Partners.admin(this.client.post().uri("/admin/v1/partners/{id}/keys", partner.partnerId()))
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("scopes", List.of("metrics:write")))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("scopes");
	}

	@Test
	void twoChangesOfDifferentFieldsMadeAtOnceBothHold() {
		List<Credentials> many = IntStream.range(0, 10).mapToObj((i) -> this.partners.onboard()).toList();
		WebClient admin = WebClient.builder()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
			.build();
		Flux.fromIterable(many)
			.flatMap((partner) -> Flux.just(Map.of("status", "suspended"), Map.of("plan", "enterprise"))
				.flatMap((change) -> admin.patch()
					.uri("/admin/v1/partners/{id}", partner.partnerId())
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(change)
					.retrieve()
					.toBodilessEntity()))
			.blockLast(Duration.ofSeconds(30));
		for (Credentials partner : many) {
			Partners.admin(this.client.get().uri("/admin/v1/partners/{id}", partner.partnerId()))
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.status")
				.isEqualTo("suspended")
				.jsonPath("$.plan")
				.isEqualTo("enterprise");
		}
	}

	@Test
	void patchingAPartnerRefusesUnknownPlansScopesAndStatusesAndChangesNothing() {
		Credentials partner = this.partners.onboard();
		Partners.admin(this.client.patch().uri("/admin/v1/partners/{id}", partner.partnerId()))
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(
					Map.of("plan", "platinum", "scopes", List.of("admin"), "status", "gone", "signing_required", "yes"))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors.length()")
			.isEqualTo(4);
		Partners.admin(this.client.get().uri("/admin/v1/partners/{id}", partner.partnerId()))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.plan")
			.isEqualTo("default")
			.jsonPath("$.status")
			.isEqualTo("active")
			.jsonPath("$.signing_required")
			.isEqualTo(false)
			.jsonPath("$.scopes.length()")
			.isEqualTo(4);
	}

	private org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec me(String apiKey) {
		return this.client.get().uri("/api/v1/auth/me").header("x-api-key", apiKey).exchange();
	}

	@SuppressWarnings("unchecked")
	private List<Map<String, Object>> pendingRegistrations() {
		List<Map<String, Object>> all = new java.util.ArrayList<>();
		String cursor = null;
		do {
			String uri = "/admin/v1/registrations?status=pending&limit=1000"
					+ ((cursor != null) ? "&cursor=" + cursor : "");
			Map<String, Object> page = Partners.admin(this.client.get().uri(uri))
				.header(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody(Map.class)
				.returnResult()
				.getResponseBody();
			all.addAll((List<Map<String, Object>>) page.get("data"));
			cursor = (String) page.get("next_cursor");
		}
		while (cursor != null);
		return all;
	}

}
