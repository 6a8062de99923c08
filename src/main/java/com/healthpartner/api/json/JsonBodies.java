package com.healthpartner.api.json;

import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.ServerRequest;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * Reads a request body as one JSON object, in the order docs/api.md gives: content type
 * (415), size (413, before anything is parsed; the route's limit, {@link BodyLimits}),
 * syntax, duplicate keys and depth (400 {@code malformed_json}). Numbers with a fraction
 * or exponent are kept as exact decimals so {@code 1e999} is seen as the non-finite value
 * it is rather than silently rounded.
 */
@Component
public class JsonBodies {

	private static final int MAX_DEPTH = 32;

	private final JsonMapper strict;

	private final BodyLimits limits;

	JsonBodies(BodyLimits limits) {
		JsonFactory factory = JsonFactory.builder()
			.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
			.streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
			.build();
		this.strict = JsonMapper.builder(factory)
			.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
			.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
			.build();
		this.limits = limits;
	}

	public Mono<ObjectNode> readObject(ServerRequest request) {
		return readBytes(request).map(this::parse).flatMap((node) -> {
			if (!node.isObject()) {
				return Mono.error(ApiException.invalidField("body", "must be a JSON object"));
			}
			return Mono.just((ObjectNode) node);
		});
	}

	/**
	 * The body as an object, or an empty object when no body was sent (for bodies that
	 * are optional).
	 */
	public Mono<ObjectNode> readOptionalObject(ServerRequest request) {
		if (request.headers().contentLength().orElse(-1) == 0
				|| (request.headers().contentLength().isEmpty() && request.headers().contentType().isEmpty()
						&& !request.headers().asHttpHeaders().containsHeader("Transfer-Encoding"))) {
			return Mono.just(this.strict.createObjectNode());
		}
		return readObject(request);
	}

	private Mono<byte[]> readBytes(ServerRequest request) {
		MediaType contentType;
		try {
			contentType = request.headers().contentType().orElse(null);
		}
		catch (InvalidMediaTypeException ex) {
			contentType = null;
		}
		if (contentType == null || !MediaType.APPLICATION_JSON.equalsTypeAndSubtype(contentType)) {
			return Mono.error(new ApiException(ProblemType.UNSUPPORTED_MEDIA_TYPE,
					"Send the body with Content-Type: application/json"));
		}
		String charset = contentType.getParameter("charset");
		if (charset != null && !charset.replace("\"", "").equalsIgnoreCase("utf-8")) {
			return Mono.error(new ApiException(ProblemType.UNSUPPORTED_MEDIA_TYPE,
					"JSON bodies are UTF-8: send Content-Type: application/json without a charset or with charset=utf-8"));
		}
		List<String> encodings = request.headers().header(HttpHeaders.CONTENT_ENCODING);
		for (String encoding : encodings) {
			if (!encoding.trim().equalsIgnoreCase("identity")) {
				return Mono.error(new ApiException(ProblemType.UNSUPPORTED_MEDIA_TYPE,
						"Request bodies are read as sent: send them without a Content-Encoding (or identity)"));
			}
		}
		return LimitedBodies.read(request.body(BodyExtractors.toDataBuffers()),
				request.headers().contentLength().orElse(-1), this.limits.of(request.path()));
	}

	/**
	 * One JSON value of {@code bytes} (a line of an import), read as strictly as a body;
	 * {@code 400 malformed_json} (or {@code validation_failed} for an unreadable number)
	 * when it is not one.
	 */
	public JsonNode parseValue(byte[] bytes) {
		return parse(bytes);
	}

	private JsonNode parse(byte[] bytes) {
		if (bytes.length == 0) {
			throw new ApiException(ProblemType.MALFORMED_JSON, "The request body is empty; send a JSON object");
		}
		if (!Utf8.valid(bytes)) {
			throw new ApiException(ProblemType.MALFORMED_JSON,
					"The request body is not valid UTF-8 (overlong forms, encoded surrogates, truncated sequences "
							+ "and stray bytes are refused); send JSON encoded in UTF-8");
		}
		try {
			return this.strict.readTree(bytes);
		}
		catch (StreamConstraintsException ex) {
			throw new ApiException(ProblemType.MALFORMED_JSON, "The request body nests deeper than " + MAX_DEPTH
					+ " levels or holds a value longer than " + "the service reads" + at(ex));
		}
		catch (JacksonException ex) {
			throw new ApiException(ProblemType.MALFORMED_JSON,
					"The request body is not one well-formed JSON object without repeated keys" + at(ex));
		}
		catch (NumberFormatException | ArithmeticException ex) {
			// a number whose exponent does not fit the parser: refused naming where it is
			throw ApiException.invalidField(NumberPaths.unreadable(this.strict, bytes),
					"must be a number with an exponent between -" + JsonValues.MAX_EXPONENT + " and "
							+ JsonValues.MAX_EXPONENT);
		}
	}

	/** Where the parser stopped, in the service's words. */
	private static String at(JacksonException ex) {
		TokenStreamLocation location = ex.getLocation();
		if (location == null || location.getLineNr() < 1) {
			return "";
		}
		return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
	}

}
