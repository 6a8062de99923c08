package com.healthpartner.api.support;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health-data calls a partner makes, for tests: raw JSON bodies (so a test controls
 * every byte it sends), pages followed through {@code next_cursor}, NDJSON exports split
 * into lines.
 */
public final class HealthApi {

	public static final String METRICS = "/api/v1/health/metrics";

	public static final String ASSESSMENTS = "/api/v1/health/assessments";

	public static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() {
	};

	private final WebTestClient client;

	public HealthApi(WebTestClient client) {
		this.client = client;
	}

	/** POSTs a JSON text; {@code headers} are name, value pairs. */
	public WebTestClient.ResponseSpec post(String path, String apiKey, String json, String... headers) {
		WebTestClient.RequestBodySpec spec = this.client.post()
			.uri(path)
			.header("x-api-key", apiKey)
			.contentType(MediaType.APPLICATION_JSON);
		for (int i = 0; i + 1 < headers.length; i += 2) {
			spec.header(headers[i], headers[i + 1]);
		}
		return spec.bodyValue(json).exchange();
	}

	/** POSTs and expects 201; returns the created record. */
	public Map<String, Object> create(String path, String apiKey, String json) {
		Map<String, Object> body = post(path, apiKey, json).expectStatus()
			.isCreated()
			.expectBody(MAP)
			.returnResult()
			.getResponseBody();
		assertThat(body).isNotNull();
		return body;
	}

	/** Asks for the erasure of {@code user} and expects 202; returns the erasure. */
	public Map<String, Object> erase(String apiKey, String user) {
		Map<String, Object> body = this.client.delete()
			.uri("/api/v1/health/users/{u}", user)
			.header("x-api-key", apiKey)
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectBody(MAP)
			.returnResult()
			.getResponseBody();
		assertThat(body).isNotNull();
		return body;
	}

	/** GETs a URI template with its values (values are encoded). */
	public WebTestClient.ResponseSpec get(String apiKey, String uri, Object... values) {
		return this.client.get().uri(uri, values).header("x-api-key", apiKey).exchange();
	}

	/** One JSON page, expected 200. */
	public Map<String, Object> page(String apiKey, String uri, Object... values) {
		Map<String, Object> body = get(apiKey, uri, values).expectStatus()
			.isOk()
			.expectBody(MAP)
			.returnResult()
			.getResponseBody();
		assertThat(body).isNotNull();
		return body;
	}

	/**
	 * Every record of a list, following {@code next_cursor} page by page ({@code uri} has
	 * a query string and no cursor).
	 */
	@SuppressWarnings("unchecked")
	public List<Map<String, Object>> allPages(String apiKey, String uri, Object... values) {
		List<Map<String, Object>> records = new ArrayList<>();
		Map<String, Object> page = page(apiKey, uri, values);
		records.addAll((List<Map<String, Object>>) page.get("data"));
		int pages = 1;
		while (page.get("next_cursor") != null) {
			Object[] withCursor = Arrays.copyOf(values, values.length + 1);
			withCursor[values.length] = page.get("next_cursor");
			page = page(apiKey, uri + "&cursor={cursor}", withCursor);
			records.addAll((List<Map<String, Object>>) page.get("data"));
			assertThat(++pages).as("pages").isLessThan(1000);
		}
		return records;
	}

	/** An NDJSON export, expected 200 with content type application/x-ndjson. */
	public List<String> ndjson(String apiKey, String uri, Object... values) {
		byte[] body = this.client.get()
			.uri(uri, values)
			.header("x-api-key", apiKey)
			.accept(MediaType.APPLICATION_NDJSON)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(MediaType.APPLICATION_NDJSON)
			.expectBody(byte[].class)
			.returnResult()
			.getResponseBody();
		if (body == null || body.length == 0) {
			return List.of();
		}
		String text = new String(body, StandardCharsets.UTF_8);
		assertThat(text).endsWith("\n");
		return List.of(text.split("\n"));
	}

}
