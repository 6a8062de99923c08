package com.healthpartner.api.docs;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.OpenApiContract;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The maintained document is what {@code /v3/api-docs} serves and what the Swagger UI at
 * {@code /docs} loads, without a key; and no route of the service is missing from it.
 */
class ApiDocumentationTest extends IntegrationTest {

	@Autowired
	private ApplicationContext context;

	@Test
	void theMaintainedDocumentIsServedAsJsonWithoutAKey() throws IOException {
		byte[] served = this.client.get()
			.uri("/v3/api-docs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
			.expectBody()
			.returnResult()
			.getResponseBody();
		JsonNode document = JsonMapper.builder().build().readTree(served);
		JsonNode maintained = maintained();
		assertThat(document.path("openapi").asString()).isEqualTo("3.1.0");
		assertThat(document.path("paths")).isEqualTo(maintained.path("paths"));
		assertThat(document.path("components")).isEqualTo(maintained.path("components"));
		assertThat(document.path("servers").path(0).path("url").asString()).isEqualTo("http://localhost:8080");
		byte[] yaml = this.client.get()
			.uri("/v3/api-docs.yaml")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody();
		assertThat(YAMLMapper.builder().build().readTree(yaml)).isEqualTo(document);
	}

	@Test
	void theSwaggerUiAtDocsLoadsTheMaintainedDocument() {
		String location = this.client.get()
			.uri("/docs")
			.exchange()
			.expectStatus()
			.is3xxRedirection()
			.returnResult(Void.class)
			.getResponseHeaders()
			.getFirst(HttpHeaders.LOCATION);
		assertThat(location).isEqualTo("/swagger-ui/index.html");
		this.client.get()
			.uri(location)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.value((page) -> assertThat(page).contains("swagger-ui"));
		this.client.get()
			.uri("/v3/api-docs/swagger-config")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.url")
			.isEqualTo("/v3/api-docs");
	}

	@Test
	void everyRouteOfTheServiceIsDocumented() throws IOException {
		Set<String> documented = new TreeSet<>();
		maintained().path("paths").properties().forEach((path) -> path.getValue().propertyNames().forEach((method) -> {
			if (!method.equals("parameters") && !method.equals("summary") && !method.equals("description")) {
				documented.add(method.toUpperCase(Locale.ROOT) + " " + normalized(path.getKey()));
			}
		}));
		Set<String> routed = new TreeSet<>();
		RoutedOperations.of(this.context, (method, path) -> {
			if (!OpenApiContract.shared().exempt(path)) {
				routed.add(method + " " + normalized(path));
			}
		});
		assertThat(routed).isNotEmpty().contains("GET /api/v1/auth/me", "DELETE /admin/v1/partners/{}/keys/{}");
		assertThat(documented).containsAll(routed);
	}

	private static String normalized(String template) {
		return template.replaceAll("\\{[^}]+}", "{}");
	}

	private static JsonNode maintained() throws IOException {
		try (InputStream in = new ClassPathResource(ApiDocument.LOCATION).getInputStream()) {
			return YAMLMapper.builder().build().readTree(in);
		}
	}

}
