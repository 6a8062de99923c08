package com.healthpartner.api.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;

import org.springframework.core.io.ClassPathResource;

/**
 * The OpenAPI document as a tree whose nodes know their location, so that any schema in
 * it (under {@code components} or inline under {@code paths}) is validated by the JSON
 * Schema validator with the document's own {@code $ref}s resolved (OpenAPI 3.1 dialect of
 * JSON Schema 2020-12, formats asserted).
 */
final class OpenApiDocument {

	private final Located root;

	private final SchemaRegistry registry;

	private final Map<SchemaLocation, Schema> schemas = new ConcurrentHashMap<>();

	/** Strict reading of answers: a duplicated key is a violation, numbers stay exact. */
	private final JsonMapper answers = JsonMapper
		.builder(JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private OpenApiDocument(JsonNode document, SchemaLocation location) {
		this.root = new Located(document, location);
		this.registry = SchemaRegistry.withDialect(Dialects.getOpenApi31(), (builder) -> builder
			.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
	}

	/** Reads a {@code classpath:} YAML document. */
	static OpenApiDocument load(String location) {
		try (InputStream in = new ClassPathResource(location.substring("classpath:".length())).getInputStream()) {
			return new OpenApiDocument(YAMLMapper.builder().build().readTree(in), SchemaLocation.of(location));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the OpenAPI document " + location, ex);
		}
	}

	Located root() {
		return this.root;
	}

	/** Follows {@code $ref}s within the document. */
	Located resolve(Located located) {
		Located current = located;
		while (current.node().has("$ref")) {
			String ref = current.node().get("$ref").asString();
			if (!ref.startsWith("#/")) {
				throw new IllegalStateException("Only local $refs are supported: " + ref);
			}
			current = this.root;
			for (String token : ref.substring(2).split("/")) {
				current = current.child(token.replace("~1", "/").replace("~0", "~"));
				if (current == null) {
					throw new IllegalStateException("Dangling $ref " + ref);
				}
			}
		}
		return current;
	}

	List<String> validate(Located schema, byte[] json, String label) {
		return validate(schema, new String(json, StandardCharsets.UTF_8), label);
	}

	List<String> validate(Located schema, String json, String label) {
		JsonNode instance;
		try {
			instance = this.answers.readTree(json);
		}
		catch (JacksonException ex) {
			return List.of(label + " is not valid JSON: " + ex.getOriginalMessage());
		}
		return validate(schema, instance, label);
	}

	/** Header values are text; a header whose schema is a number is read as one. */
	List<String> validateHeader(Located schema, String name, String value) {
		if (schema == null) {
			return List.of();
		}
		String type = schema.node().path("type").asString("string");
		JsonNode instance;
		try {
			instance = switch (type) {
				case "integer" -> JsonNodeFactory.instance.numberNode(Long.parseLong(value.trim()));
				case "number" -> JsonNodeFactory.instance.numberNode(new BigDecimal(value.trim()));
				default -> JsonNodeFactory.instance.stringNode(value);
			};
		}
		catch (NumberFormatException ex) {
			return List.of("header " + name + ": '" + value + "' is not " + type);
		}
		return validate(schema, instance, "header " + name);
	}

	/** A problem's {@code status} member must be the answer's status. */
	List<String> statusViolations(byte[] body, int status) {
		try {
			JsonNode problemStatus = this.answers.readTree(body).path("status");
			return (problemStatus.isNumber() && problemStatus.asInt() == status) ? List.of()
					: List.of("body: status " + problemStatus + " differs from the HTTP status " + status);
		}
		catch (JacksonException ex) {
			return List.of();
		}
	}

	private List<String> validate(Located schema, JsonNode instance, String label) {
		Schema compiled = this.schemas.computeIfAbsent(schema.location(), this.registry::getSchema);
		List<Error> errors = compiled.validate(instance);
		return errors.stream().map((error) -> {
			String at = error.getInstanceLocation().toString();
			return label + ((at.isEmpty() || at.equals("$")) ? "" : " at " + at) + ": " + error.getMessage();
		}).toList();
	}

	/** A node of the document with its location ({@code classpath:...#/pointer}). */
	record Located(JsonNode node, SchemaLocation location) {

		Located child(String name) {
			JsonNode child = this.node.get(name);
			return (child != null) ? new Located(child, this.location.append(name)) : null;
		}

	}

}
