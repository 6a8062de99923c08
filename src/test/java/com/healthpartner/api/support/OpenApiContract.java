package com.healthpartner.api.support;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The OpenAPI document as the judge of every answer the tests receive: the status must be
 * documented for the operation, the body must match the schema of its content type, and
 * every header but a short list of generic HTTP ones must be documented on that answer
 * (and the required ones present). Answers to paths or methods the document does not
 * describe must be problem+json of the {@code Problem} schema. Only answers are judged:
 * tests send bad requests on purpose.
 */
public final class OpenApiContract {

	public static final String DOCUMENT = "classpath:openapi/health-partner-api.yaml";

	/**
	 * Paths outside the contract: the route declared only by tests, and the documentation
	 * itself ({@code /v3/api-docs}, the Swagger UI).
	 */
	static final List<String> EXEMPT_PREFIXES = List.of(TestBeans.SCOPED_PATH, "/v3/api-docs", "/docs", "/swagger-ui/",
			"/webjars/", "/actuator/");

	/** Headers every problem answer carries, whatever the path. */
	private static final List<String> PROBLEM_HEADERS = List.of("X-Request-Id", "Cache-Control");

	private static final List<String> RATE_LIMIT_HEADERS = List.of("X-RateLimit-Limit", "X-RateLimit-Remaining",
			"X-RateLimit-Reset", "RateLimit-Policy", "RateLimit");

	private static OpenApiContract shared;

	private final OpenApiDocument document;

	private final List<Route> routes = new ArrayList<>();

	private final AnswerHeaders headers;

	private final AnswerBodies bodies;

	private final Map<String, AnswerHeaders.Header> allHeaders = new LinkedHashMap<>();

	OpenApiContract(OpenApiDocument document) {
		this.document = document;
		this.headers = new AnswerHeaders(document);
		this.bodies = new AnswerBodies(document);
		OpenApiDocument.Located paths = document.root().child("paths");
		for (String template : paths.node().propertyNames()) {
			this.routes.add(Route.of(template, document.resolve(paths.child(template))));
		}
		this.routes.sort(Comparator.comparingInt(Route::variables));
		collectHeaders(document.root().node(), document.root());
	}

	/** The contract of the document in {@code src/main/resources}, loaded once. */
	public static synchronized OpenApiContract shared() {
		if (shared == null) {
			shared = new OpenApiContract(OpenApiDocument.load(DOCUMENT));
		}
		return shared;
	}

	/** Whether answers to this path are outside the contract. */
	public boolean exempt(String path) {
		return EXEMPT_PREFIXES.stream().anyMatch(path::startsWith);
	}

	/**
	 * Everything about this answer that the document does not describe; empty when it
	 * conforms. A {@code null} body is not checked (streams are checked line by line with
	 * {@link #lineViolations}).
	 */
	public List<String> violations(ObservedResponse response) {
		if (exempt(response.path())) {
			return List.of();
		}
		Optional<Route> route = route(response.path());
		OpenApiDocument.Located operation = route.map((r) -> r.item().child(response.method().toLowerCase(Locale.ROOT)))
			.orElse(null);
		if (operation == null) {
			return undocumentedRoute(response, route.orElse(null));
		}
		OpenApiDocument.Located definition = definition(operation, response.status());
		if (definition == null) {
			return List.of("status " + response.status() + " is not documented for " + response.method() + " "
					+ route.get().template() + " (documented: "
					+ AnswerBodies.names(operation.child("responses").node()) + ")");
		}
		List<String> violations = new ArrayList<>(
				this.headers.violations(response.headers(), this.headers.documentedBy(definition)));
		violations.addAll(this.bodies.violations(response.body(), response.headers(), definition.child("content")));
		return violations;
	}

	/**
	 * What is wrong with one line of an {@code application/x-ndjson} answer whose status
	 * and headers were checked.
	 */
	public List<String> lineViolations(ObservedResponse response, String line) {
		OpenApiDocument.Located schema = responseSchema(response);
		return (schema != null) ? this.document.validate(schema, line, "line") : List.of();
	}

	public static String describe(ObservedResponse response, List<String> violations) {
		return response + " does not match the OpenAPI document (src/main/resources/openapi/health-partner-api.yaml):"
				+ System.lineSeparator() + "  - " + String.join(System.lineSeparator() + "  - ", violations);
	}

	private OpenApiDocument.Located responseSchema(ObservedResponse response) {
		OpenApiDocument.Located operation = route(response.path())
			.map((r) -> r.item().child(response.method().toLowerCase(Locale.ROOT)))
			.orElse(null);
		OpenApiDocument.Located definition = (operation != null) ? definition(operation, response.status()) : null;
		OpenApiDocument.Located content = (definition != null) ? definition.child("content") : null;
		MediaType type = AnswerBodies.contentType(response.headers());
		return (content != null && type != null) ? AnswerBodies.schema(content, type) : null;
	}

	private OpenApiDocument.Located definition(OpenApiDocument.Located operation, int status) {
		OpenApiDocument.Located responses = operation.child("responses");
		OpenApiDocument.Located definition = responses.child(String.valueOf(status));
		if (definition == null) {
			definition = responses.child((status / 100) + "XX");
		}
		return (definition != null) ? this.document.resolve(definition) : null;
	}

	private List<String> undocumentedRoute(ObservedResponse response, Route route) {
		String what = (route != null) ? response.method() + " is not documented for " + route.template()
				: "the path is not in the document";
		if (response.status() < 400) {
			return List.of(what + ", yet it was answered " + response.status());
		}
		List<String> required = new ArrayList<>(PROBLEM_HEADERS);
		if (response.status() == 405) {
			required.add("Allow");
		}
		if (response.status() == 429 || response.status() == 503) {
			required.add("Retry-After");
		}
		if (response.path().startsWith("/api/v1/") || response.path().equals("/api/v1")) {
			required.addAll(RATE_LIMIT_HEADERS);
		}
		List<String> violations = new ArrayList<>(
				this.headers.violations(response.headers(), this.allHeaders, required));
		String allow = response.headers().getFirst(HttpHeaders.ALLOW);
		if (response.status() == 405 && route != null && allow != null) {
			Set<String> documentedMethods = new TreeSet<>();
			route.item().node().propertyNames().forEach((name) -> documentedMethods.add(name.toUpperCase(Locale.ROOT)));
			documentedMethods.retainAll(Set.of("GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"));
			Set<String> allowed = new TreeSet<>(List.of(allow.split(",\\s*")));
			if (!allowed.equals(documentedMethods)) {
				violations.add("Allow: " + allow + " differs from the methods documented for " + route.template() + " "
						+ documentedMethods);
			}
		}
		MediaType type = AnswerBodies.contentType(response.headers());
		if (type == null || !MediaType.APPLICATION_PROBLEM_JSON.equalsTypeAndSubtype(type)) {
			violations.add(what + ", so the answer must be application/problem+json, not " + type);
		}
		else if (response.body() != null) {
			violations.addAll(
					this.document.validate(this.document.root().child("components").child("schemas").child("Problem"),
							response.body(), "body"));
			violations.addAll(this.document.statusViolations(response.body(), response.status()));
		}
		return violations;
	}

	/** Every header name documented on any answer, with its first definition. */
	private void collectHeaders(JsonNode node, OpenApiDocument.Located at) {
		if (!node.isObject()) {
			return;
		}
		OpenApiDocument.Located headers = at.child("headers");
		if (headers != null && headers.node().isObject() && at.node().has("description")) {
			for (String name : headers.node().propertyNames()) {
				this.allHeaders.putIfAbsent(name.toLowerCase(Locale.ROOT),
						new AnswerHeaders.Header(name, this.document.resolve(headers.child(name))));
			}
		}
		for (String name : node.propertyNames()) {
			collectHeaders(node.get(name), at.child(name));
		}
	}

	private Optional<Route> route(String path) {
		return this.routes.stream().filter((route) -> route.pattern().matcher(path).matches()).findFirst();
	}

	/** A path of the document, matched by its template with literal paths first. */
	record Route(String template, Pattern pattern, int variables, OpenApiDocument.Located item) {

		static Route of(String template, OpenApiDocument.Located item) {
			String regex = Pattern.quote(template).replaceAll("\\{[^}/]+}", "\\\\E[^/]+\\\\Q");
			int variables = template.split("\\{", -1).length - 1;
			return new Route(template, Pattern.compile(regex), variables, item);
		}

	}

}
