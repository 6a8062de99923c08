package com.healthpartner.api.support;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * The body rules of the OpenAPI document: an answer's content type must be one its
 * definition documents, and its body must match that media type's schema (JSON as a
 * whole, NDJSON line by line); an answer documented without content has no body.
 */
final class AnswerBodies {

	private final OpenApiDocument document;

	AnswerBodies(OpenApiDocument document) {
		this.document = document;
	}

	/**
	 * Violations of a body ({@code null}: not checked) against a definition's content.
	 */
	List<String> violations(byte[] body, HttpHeaders headers, OpenApiDocument.Located content) {
		if (content == null || content.node().isEmpty()) {
			return (body != null && body.length > 0) ? List.of("a body was sent where the document describes none")
					: List.of();
		}
		MediaType type = contentType(headers);
		if (type == null) {
			return List.of("no (valid) Content-Type, the document describes " + names(content.node()));
		}
		OpenApiDocument.Located schema = schema(content, type);
		if (schema == null && media(content, type) == null) {
			return List.of("Content-Type " + type + " is not documented (documented: " + names(content.node()) + ")");
		}
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

	/** The schema documented for this content type, if any. */
	static OpenApiDocument.Located schema(OpenApiDocument.Located content, MediaType type) {
		OpenApiDocument.Located media = media(content, type);
		return (media != null) ? media.child("schema") : null;
	}

	static MediaType contentType(HttpHeaders headers) {
		try {
			return headers.getContentType();
		}
		catch (InvalidMediaTypeException ex) {
			return null;
		}
	}

	static String names(JsonNode node) {
		return String.join(", ", node.propertyNames());
	}

	private static OpenApiDocument.Located media(OpenApiDocument.Located content, MediaType type) {
		for (String name : content.node().propertyNames()) {
			if (MediaType.parseMediaType(name).includes(type)) {
				return content.child(name);
			}
		}
		return null;
	}

}
