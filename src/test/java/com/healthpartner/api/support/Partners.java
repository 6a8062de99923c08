package com.healthpartner.api.support;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Onboards fresh partners through the public and admin routes, as a partner and an
 * administrator would; every test gets its own partner instead of cleaning tables.
 */
public final class Partners {

	private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() {
	};

	private final WebTestClient client;

	public Partners(WebTestClient client) {
		this.client = client;
	}

	public String register(String email, String name) {
		Map<?, ?> body = this.client.post()
			.uri("/api/v1/auth")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("email", email, "partner_name", name))
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody();
		assertThat(body).isNotNull();
		return (String) body.get("registration_id");
	}

	public Credentials approve(String registrationId, Map<String, Object> request) {
		return credentials(this.client.post().uri("/admin/v1/registrations/{id}/approve", registrationId), request);
	}

	/**
	 * A new active partner on the given plan with the given scopes (all four when none
	 * are named).
	 */
	public Credentials onboard(String plan, String... scopes) {
		String unique = UUID.randomUUID().toString().substring(0, 12);
		String registration = register("ops+" + unique + "@gym.example", "Gym " + unique);
		return (scopes.length == 0) ? approve(registration, Map.of("plan", plan))
				: approve(registration, Map.of("plan", plan, "scopes", List.of(scopes)));
	}

	public Credentials onboard() {
		return onboard("default");
	}

	public Credentials issueKey(String partnerId, Map<String, Object> request) {
		return credentials(this.client.post().uri("/admin/v1/partners/{id}/keys", partnerId), request);
	}

	/**
	 * The key and secret of an administrator's POST that issues them ({@code 201}, its
	 * {@code Location} the partner's).
	 */
	private Credentials credentials(WebTestClient.RequestBodySpec post, Map<String, Object> request) {
		EntityExchangeResult<Map<String, Object>> answer = admin(post).contentType(MediaType.APPLICATION_JSON)
			.bodyValue(request)
			.exchange()
			.expectStatus()
			.isCreated()
			.expectBody(MAP)
			.returnResult();
		Map<String, Object> body = answer.getResponseBody();
		assertThat(body).isNotNull();
		assertThat(answer.getResponseHeaders().getFirst(HttpHeaders.LOCATION))
			.isEqualTo("/admin/v1/partners/" + body.get("partner_id"));
		return Credentials.of(body);
	}

	public void patch(String partnerId, Map<String, Object> change) {
		admin(this.client.patch().uri("/admin/v1/partners/{id}", partnerId)).contentType(MediaType.APPLICATION_JSON)
			.bodyValue(change)
			.exchange()
			.expectStatus()
			.isOk();
	}

	/**
	 * The status of {@code GET /api/v1/auth/me} with {@code apiKey}: is the key accepted?
	 */
	public static int meStatus(WebTestClient client, String apiKey) {
		return client.get()
			.uri("/api/v1/auth/me")
			.header("x-api-key", apiKey)
			.exchange()
			.returnResult(String.class)
			.getStatus()
			.value();
	}

	/** The body of {@code /actuator/health/{component}} (the whole health for ""). */
	public static String health(WebTestClient client, String component) {
		String body = client.get()
			.uri(component.isEmpty() ? "/actuator/health" : "/actuator/health/" + component)
			.exchange()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		return (body != null) ? body : "";
	}

	public static <S extends WebTestClient.RequestHeadersSpec<?>> S admin(S spec) {
		spec.header(HttpHeaders.AUTHORIZATION, "Bearer " + IntegrationTest.ADMIN_TOKEN);
		return spec;
	}

	public record Credentials(String partnerId, String keyId, String apiKey, String apiSecret, String plan,
			List<String> scopes) {

		@SuppressWarnings("unchecked")
		static Credentials of(Map<?, ?> body) {
			return new Credentials((String) body.get("partner_id"), (String) body.get("key_id"),
					(String) body.get("api_key"), (String) body.get("api_secret"), (String) body.get("plan"),
					(List<String>) body.get("scopes"));
		}

	}

}
