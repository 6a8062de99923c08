package com.healthpartner.api.docs;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;

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
		Set<String> routed = routed();
		assertThat(routed).isNotEmpty().contains("GET /api/v1/auth/me", "DELETE /admin/v1/partners/{}/keys/{}");
		assertThat(documented).containsAll(routed);
	}

	/** Method and path of every route the service's routers declare (but the exempt). */
	private Set<String> routed() {
		Set<String> routes = new TreeSet<>();
		OpenApiContract contract = OpenApiContract.shared();
		for (RouterFunction<?> router : this.context.getBeansOfType(RouterFunction.class).values()) {
			router.accept(new RouterFunctions.Visitor() {

				private final Deque<String> prefixes = new ArrayDeque<>();

				@Override
				public void startNested(RequestPredicate predicate) {
					this.prefixes.push(current() + Route.of(predicate).path());
				}

				@Override
				public void endNested(RequestPredicate predicate) {
					this.prefixes.pop();
				}

				@Override
				public void route(RequestPredicate predicate, HandlerFunction<?> handler) {
					Route route = Route.of(predicate);
					String path = current() + route.path();
					if (!contract.exempt(path)) {
						route.methods().forEach((method) -> routes.add(method.name() + " " + normalized(path)));
					}
				}

				@Override
				public void resources(Function<ServerRequest, Mono<Resource>> lookup) {
				}

				@Override
				public void attributes(Map<String, Object> attributes) {
				}

				@Override
				public void unknown(RouterFunction<?> routerFunction) {
				}

				private String current() {
					return this.prefixes.isEmpty() ? "" : this.prefixes.peek();
				}

			});
		}
		return routes;
	}

	private static String normalized(String template) {
		return template.replaceAll("\\{[^}]+}", "{}");
	}

	private static JsonNode maintained() throws IOException {
		try (InputStream in = new ClassPathResource(ApiDocument.LOCATION).getInputStream()) {
			return YAMLMapper.builder().build().readTree(in);
		}
	}

	/**
	 * The methods and path a route predicate matches (routes without a method answer
	 * 405).
	 */
	private record Route(Set<HttpMethod> methods, String path) {

		static Route of(RequestPredicate predicate) {
			Set<HttpMethod> methods = new HashSet<>();
			StringBuilder path = new StringBuilder();
			predicate.accept(new RequestPredicates.Visitor() {

				@Override
				public void method(Set<HttpMethod> matched) {
					methods.addAll(matched);
				}

				@Override
				public void path(String pattern) {
					path.append(pattern);
				}

				@Override
				public void pathExtension(String extension) {
				}

				@Override
				public void header(String name, String value) {
				}

				@Override
				public void queryParam(String name, String value) {
				}

				@Override
				public void version(String version) {
				}

				@Override
				public void startAnd() {
				}

				@Override
				public void and() {
				}

				@Override
				public void endAnd() {
				}

				@Override
				public void startOr() {
				}

				@Override
				public void or() {
				}

				@Override
				public void endOr() {
				}

				@Override
				public void startNegate() {
				}

				@Override
				public void endNegate() {
				}

				@Override
				public void unknown(RequestPredicate unknown) {
				}

			});
			return new Route(methods, path.toString());
		}

	}

}
