package com.healthpartner.api.support;

import java.nio.charset.StandardCharsets;
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
import org.springframework.http.InvalidMediaTypeException;
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

	/** Headers any HTTP answer may carry without being documented. */
	static final Set<String> GENERIC_HEADERS = Set.of("content-type", "content-length", "transfer-encoding", "date",
			"connection", "keep-alive", "vary", "content-encoding");

	/**
	 * Paths outside the contract: the route declared only by tests, and the documentation
	 * itself ({@code /v3/api-docs}, the Swagger UI).
	 */
	static final List<String> EXEMPT_PREFIXES = List.of(TestBeans.SCOPED_PATH, "/v3/api-docs", "/docs", "/swagger-ui/",
			"/webjars/");

	/**
	 * Documented as required on every {@code /api/v1} answer, but sent only once the
	 * traffic-control branch is merged: until then their values are checked when present
	 * and their absence is tolerated. Empty this set after that merge.
	 */
	static final Set<String> NOT_YET_SENT = Set.of("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset",
			"ratelimit-policy", "ratelimit");

	/** Headers every problem answer carries, whatever the path. */
	private static final List<String> PROBLEM_HEADERS = List.of("X-Request-Id", "Cache-Control");

	private static final List<String> RATE_LIMIT_HEADERS = List.of("X-RateLimit-Limit", "X-RateLimit-Remaining",
			"X-RateLimit-Reset", "RateLimit-Policy", "RateLimit");

	private static OpenApiContract shared;

	private final OpenApiDocument document;

	private final List<Route> routes = new ArrayList<>();

	private final Map<String, Header> allHeaders = new LinkedHashMap<>();

	OpenApiContract(OpenApiDocument document) {
		this.document = document;
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
					+ route.get().template() + " (documented: " + names(operation.child("responses").node()) + ")");
		}
		List<String> violations = new ArrayList<>(headerViolations(response.headers(), documentedHeaders(definition)));
		violations.addAll(bodyViolations(response, definition.child("content")));
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
		MediaType type = contentType(response.headers());
		OpenApiDocument.Located media = (content != null && type != null) ? media(content, type) : null;
		return (media != null) ? media.child("schema") : null;
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
		Map<String, Header> documented = new LinkedHashMap<>(this.allHeaders);
		List<String> violations = new ArrayList<>(headerViolations(response.headers(), documented, required));
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
		MediaType type = contentType(response.headers());
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

	private List<String> headerViolations(HttpHeaders headers, Map<String, Header> documented) {
		List<String> required = new ArrayList<>();
		documented.values().forEach((header) -> {
			if (header.definition().node().path("required").asBoolean(false)) {
				required.add(header.name());
			}
		});
		return headerViolations(headers, documented, required);
	}

	private List<String> headerViolations(HttpHeaders headers, Map<String, Header> documented, List<String> required) {
		List<String> violations = new ArrayList<>();
		for (String name : headers.headerNames()) {
			String key = name.toLowerCase(Locale.ROOT);
			if (GENERIC_HEADERS.contains(key)) {
				continue;
			}
			Header header = documented.get(key);
			if (header == null) {
				violations.add("header " + name + " is not documented for this answer");
				continue;
			}
			for (String value : headers.get(name)) {
				violations.addAll(this.document.validateHeader(header.definition().child("schema"), name, value));
			}
		}
		for (String name : required) {
			String key = name.toLowerCase(Locale.ROOT);
			if (!headers.containsHeader(name) && !NOT_YET_SENT.contains(key)) {
				violations.add("required header " + name + " is missing");
			}
		}
		return violations;
	}

	private List<String> bodyViolations(ObservedResponse response, OpenApiDocument.Located content) {
		byte[] body = response.body();
		if (content == null || content.node().isEmpty()) {
			return (body != null && body.length > 0) ? List.of("a body was sent where the document describes none")
					: List.of();
		}
		MediaType type = contentType(response.headers());
		if (type == null) {
			return List.of("no (valid) Content-Type, the document describes " + names(content.node()));
		}
		OpenApiDocument.Located media = media(content, type);
		if (media == null) {
			return List.of("Content-Type " + type + " is not documented (documented: " + names(content.node()) + ")");
		}
		OpenApiDocument.Located schema = media.child("schema");
		if (body == null || schema == null) {
			return List.of();
		}
		if (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json")) {
			return this.document.validate(schema, body, "body");
		}
		if (type.getSubtype().equals("x-ndjson")) {
			List<String> violations = new ArrayList<>();
			String[] lines = new String(body, StandardCharsets.UTF_8).split("\n");
			for (int i = 0; i < lines.length; i++) {
				if (!lines[i].isBlank()) {
					violations.addAll(this.document.validate(schema, lines[i], "line " + (i + 1)));
				}
			}
			return violations;
		}
		return List.of();
	}

	private static OpenApiDocument.Located media(OpenApiDocument.Located content, MediaType type) {
		for (String name : content.node().propertyNames()) {
			if (MediaType.parseMediaType(name).includes(type)) {
				return content.child(name);
			}
		}
		return null;
	}

	private Map<String, Header> documentedHeaders(OpenApiDocument.Located definition) {
		Map<String, Header> documented = new LinkedHashMap<>();
		OpenApiDocument.Located headers = definition.child("headers");
		if (headers != null) {
			for (String name : headers.node().propertyNames()) {
				documented.put(name.toLowerCase(Locale.ROOT),
						new Header(name, this.document.resolve(headers.child(name))));
			}
		}
		return documented;
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
						new Header(name, this.document.resolve(headers.child(name))));
			}
		}
		for (String name : node.propertyNames()) {
			collectHeaders(node.get(name), at.child(name));
		}
	}

	private Optional<Route> route(String path) {
		return this.routes.stream().filter((route) -> route.pattern().matcher(path).matches()).findFirst();
	}

	private static MediaType contentType(HttpHeaders headers) {
		try {
			return headers.getContentType();
		}
		catch (InvalidMediaTypeException ex) {
			return null;
		}
	}

	private static String names(JsonNode node) {
		List<String> names = new ArrayList<>();
		node.propertyNames().forEach(names::add);
		return String.join(", ", names);
	}

	/** A documented header: its name as written and its definition. */
	record Header(String name, OpenApiDocument.Located definition) {

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
