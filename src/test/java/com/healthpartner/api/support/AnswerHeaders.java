package com.healthpartner.api.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.http.HttpHeaders;

/**
 * The header rules of the OpenAPI document and docs/api.md: every header of an answer but
 * a short list of generic HTTP ones must be documented on that answer, with a value its
 * schema accepts, and every required one must be there.
 */
final class AnswerHeaders {

	/** Headers any HTTP answer may carry without being documented. */
	static final Set<String> GENERIC = Set.of("content-type", "content-length", "transfer-encoding", "date",
			"connection", "keep-alive", "vary", "content-encoding");

	private final OpenApiDocument document;

	AnswerHeaders(OpenApiDocument document) {
		this.document = document;
	}

	/** The headers an answer's definition documents, by lower-case name. */
	Map<String, Header> documentedBy(OpenApiDocument.Located definition) {
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

	/**
	 * Violations against the documented headers, whose {@code required} ones must be
	 * there.
	 */
	List<String> violations(HttpHeaders headers, Map<String, Header> documented) {
		List<String> required = documented.values()
			.stream()
			.filter((header) -> header.definition().node().path("required").asBoolean(false))
			.map(Header::name)
			.toList();
		return violations(headers, documented, required);
	}

	List<String> violations(HttpHeaders headers, Map<String, Header> documented, List<String> required) {
		List<String> violations = new ArrayList<>();
		for (String name : headers.headerNames()) {
			if (GENERIC.contains(name.toLowerCase(Locale.ROOT))) {
				continue;
			}
			Header header = documented.get(name.toLowerCase(Locale.ROOT));
			if (header == null) {
				violations.add("header " + name + " is not documented for this answer");
				continue;
			}
			for (String value : headers.get(name)) {
				violations.addAll(this.document.validateHeader(header.definition().child("schema"), name, value));
			}
		}
		for (String name : required) {
			if (!headers.containsHeader(name)) {
				violations.add("required header " + name + " is missing");
			}
		}
		return violations;
	}

	/** A documented header: its name as written and its definition. */
	record Header(String name, OpenApiDocument.Located definition) {

	}

}
