package com.healthpartner.api.problem;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.system.AppProperties;
import com.healthpartner.api.text.JsonText;

/**
 * Writes a problem as the answer: status, {@code application/problem+json},
 * {@code Cache-Control: no-store}, the problem's own headers, and the RFC 9457 body with
 * its stable {@code code} and the request id. The one writer of problems: the error
 * handler uses it for failures, the request checks for their refusals (a refusal is
 * answered at once instead of travelling as an error through the chain). The body is
 * built directly, field by field, in the order a JSON writer would give the same object.
 */
@Component
public class ProblemWriter {

	/**
	 * Headers whose names are not checked again: the edge's answers set only their own.
	 */
	private static final HttpHeadersFactory OWN_NAMES = DefaultHttpHeadersFactory.headersFactory()
		.withNameValidation(false);

	private static final AsciiString PROBLEM_JSON = AsciiString.cached(MediaType.APPLICATION_PROBLEM_JSON_VALUE);

	private static final AsciiString NO_STORE = AsciiString.cached("no-store");

	/**
	 * The start of each type's body, the same for all its problems: {@code type},
	 * {@code title}, {@code status} and the name of {@code detail}.
	 */
	private final Map<ProblemType, String> starts = new EnumMap<>(ProblemType.class);

	private final Rejections rejections;

	ProblemWriter(AppProperties properties, Rejections rejections) {
		String problemBase = properties.publicBaseUrl() + "/problems/";
		for (ProblemType type : ProblemType.values()) {
			StringBuilder start = new StringBuilder("{\"type\":");
			JsonText.quote(start, problemBase + type.code()).append(",\"title\":");
			JsonText.quote(start, type.title())
				.append(",\"status\":")
				.append(type.status().value())
				.append(",\"detail\":");
			this.starts.put(type, start.toString());
		}
		this.rejections = rejections;
	}

	public Mono<Void> write(ServerWebExchange exchange, ApiException problem) {
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(problem.type().status());
		byte[] body = body(exchange, problem).getBytes(StandardCharsets.UTF_8);
		HttpHeaders headers = response.getHeaders();
		headers(((name, value) -> headers.set(name.toString(), value.toString())), problem, body.length);
		return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
	}

	/**
	 * The whole answer of a problem given outside any exchange, by the HTTP edge for a
	 * request that never reached the web layer: the headers {@code first} writes (the
	 * request id, ...), then those {@link #write} gives every problem. Written into
	 * Netty's headers directly, by names whose hashes are kept ({@link AsciiString}) and
	 * not checked again (every name is this code's own; values are still checked): on the
	 * {@code 429} path Spring's adapter and the checks of each name cost more than the
	 * body.
	 */
	public FullHttpResponse answer(String path, String requestId, ApiException problem,
			Consumer<io.netty.handler.codec.http.HttpHeaders> first) {
		byte[] body = body(path, requestId, problem).getBytes(StandardCharsets.UTF_8);
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
				HttpResponseStatus.valueOf(problem.type().status().value()), Unpooled.wrappedBuffer(body), OWN_NAMES,
				DefaultHttpHeadersFactory.trailersFactory());
		first.accept(response.headers());
		headers(response.headers()::set, problem, body.length);
		return response;
	}

	/** The headers every problem's answer has, into Spring's headers or Netty's. */
	private static void headers(BiConsumer<CharSequence, CharSequence> headers, ApiException problem, int length) {
		headers.accept(HttpHeaderNames.CONTENT_TYPE, PROBLEM_JSON);
		headers.accept(HttpHeaderNames.CACHE_CONTROL, NO_STORE);
		problem.headers().forEach(headers::accept);
		// set here rather than left to the server: the answer to a HEAD has it too
		headers.accept(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(length));
	}

	String body(ServerWebExchange exchange, ApiException problem) {
		return body(exchange.getRequest().getPath().value(), RequestIds.of(exchange), problem);
	}

	/**
	 * The body of a problem answered outside any exchange (by the HTTP edge, for a
	 * request that never reached the web layer).
	 */
	public String body(String path, String requestId, ApiException problem) {
		this.rejections.count(problem.type());
		ProblemType type = problem.type();
		StringBuilder json = new StringBuilder(256).append(this.starts.get(type));
		JsonText.quote(json, (problem.getMessage() != null) ? problem.getMessage() : type.title())
			.append(",\"instance\":");
		JsonText.quote(json, path).append(",\"code\":");
		JsonText.quote(json, type.code()).append(",\"request_id\":");
		JsonText.quote(json, requestId);
		if (!problem.errors().isEmpty()) {
			json.append(",\"errors\":[");
			for (int i = 0; i < problem.errors().size(); i++) {
				FieldError error = problem.errors().get(i);
				json.append((i > 0) ? ",{\"field\":" : "{\"field\":");
				JsonText.quote(json, error.field()).append(",\"message\":");
				JsonText.quote(json, error.message()).append('}');
			}
			json.append(']');
		}
		return json.append('}').toString();
	}

}
