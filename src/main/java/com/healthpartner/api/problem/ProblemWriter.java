package com.healthpartner.api.problem;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValidationUtil;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
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

	private final Map<ProblemType, HttpResponseStatus> statuses = new EnumMap<>(ProblemType.class);

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
			this.statuses.put(type, HttpResponseStatus.valueOf(type.status().value()));
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
	 * not checked again (every name is this code's own; values are still checked), as
	 * Spring's adapter would cost more than the body. An answer given many times, but for
	 * its request id the same, is {@link #prepare prepared} instead.
	 */
	public FullHttpResponse answer(String path, String requestId, ApiException problem,
			Consumer<io.netty.handler.codec.http.HttpHeaders> first) {
		byte[] body = body(path, requestId, problem).getBytes(StandardCharsets.UTF_8);
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, this.statuses.get(problem.type()),
				Unpooled.wrappedBuffer(body), OWN_NAMES, DefaultHttpHeadersFactory.trailersFactory());
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
		StringBuilder json = beforeRequestId(path, problem);
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

	/** The body up to the request id's value: {@code {"type":...,"request_id":}. */
	private StringBuilder beforeRequestId(String path, ApiException problem) {
		ProblemType type = problem.type();
		StringBuilder json = new StringBuilder(256).append(this.starts.get(type));
		JsonText.quote(json, (problem.getMessage() != null) ? problem.getMessage() : type.title())
			.append(",\"instance\":");
		JsonText.quote(json, path).append(",\"code\":");
		return JsonText.quote(json, type.code()).append(",\"request_id\":");
	}

	/**
	 * What {@link #answer(String, String, ApiException, Consumer)} would give for
	 * {@code problem} on {@code path} with the headers {@code first} (name, value, name,
	 * ...) but for the request id, made once for answers that differ only in it (a
	 * used-up plan's {@code 429} at the HTTP edge, {@code ratelimit.EdgeRefusals}). Every
	 * name and value is checked here, once; {@link #answer(PreparedProblem, String)} adds
	 * only the id, which {@link RequestIds} keeps to characters that need no check or
	 * escape. A problem with field errors is not prepared.
	 */
	public PreparedProblem prepare(String path, ApiException problem, CharSequence... first) {
		if (!problem.errors().isEmpty() || first.length % 2 != 0) {
			throw new IllegalArgumentException("a problem without field errors, and headers in pairs");
		}
		List<CharSequence> headers = new ArrayList<>(first.length + 10);
		headers.add(RequestIds.HEADER);
		headers.add("");
		Collections.addAll(headers, first);
		headers(((name, value) -> Collections.addAll(headers, name, value)), problem, 0);
		for (int i = 0; i < headers.size(); i += 2) {
			if (i != 0 && (HttpHeaderValidationUtil.validateToken(headers.get(i)) >= 0
					|| HttpHeaderValidationUtil.validateValidHeaderValue(headers.get(i + 1)) >= 0)) {
				throw new IllegalArgumentException("not a header: " + headers.get(i) + ": " + headers.get(i + 1));
			}
		}
		byte[] before = beforeRequestId(path, problem).append('"').toString().getBytes(StandardCharsets.UTF_8);
		return new PreparedProblem(problem.type(), before, headers.toArray(CharSequence[]::new));
	}

	/**
	 * The answer of a prepared problem for the request {@code requestId} (one
	 * {@link RequestIds} chose): the same bytes as
	 * {@link #answer(String, String, ApiException, Consumer)}, with headers kept as a
	 * list in their order, neither hashed nor checked again.
	 */
	public FullHttpResponse answer(PreparedProblem prepared, String requestId) {
		this.rejections.count(prepared.type());
		byte[] before = prepared.bodyBeforeId();
		int length = before.length + requestId.length() + 2;
		ByteBuf body = Unpooled.buffer(length, length).writeBytes(before);
		ByteBufUtil.writeAscii(body, requestId);
		body.writeByte('"').writeByte('}');
		CharSequence[] headers = prepared.headers().clone();
		headers[1] = requestId;
		headers[headers.length - 1] = Integer.toString(length);
		return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, this.statuses.get(prepared.type()), body,
				new ReadOnlyHttpHeaders(false, headers), EmptyHttpHeaders.INSTANCE);
	}

}
