package com.healthpartner.api.problem;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.support.Netty4HeadersAdapter;
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

	private final String problemBase;

	private final Rejections rejections;

	ProblemWriter(AppProperties properties, Rejections rejections) {
		this.problemBase = properties.publicBaseUrl() + "/problems/";
		this.rejections = rejections;
	}

	public Mono<Void> write(ServerWebExchange exchange, ApiException problem) {
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(problem.type().status());
		byte[] body = body(exchange, problem).getBytes(StandardCharsets.UTF_8);
		headers(response.getHeaders(), problem, body.length);
		return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
	}

	/**
	 * The whole answer of a problem given outside any exchange, by the HTTP edge for a
	 * request that never reached the web layer: the headers {@code first} writes (the
	 * request id, ...), then those {@link #write} gives every problem.
	 */
	public FullHttpResponse answer(String path, String requestId, ApiException problem, Consumer<HttpHeaders> first) {
		byte[] body = body(path, requestId, problem).getBytes(StandardCharsets.UTF_8);
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
				HttpResponseStatus.valueOf(problem.type().status().value()), Unpooled.wrappedBuffer(body));
		HttpHeaders headers = new HttpHeaders(new Netty4HeadersAdapter(response.headers()));
		first.accept(headers);
		headers(headers, problem, body.length);
		return response;
	}

	private static void headers(HttpHeaders headers, ApiException problem, int length) {
		headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		headers.setCacheControl("no-store");
		problem.headers().forEach(headers::set);
		// set here rather than left to the server: the answer to a HEAD has it too
		headers.setContentLength(length);
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
		StringBuilder json = new StringBuilder(256).append("{\"type\":");
		JsonText.quote(json, this.problemBase + type.code()).append(",\"title\":");
		JsonText.quote(json, type.title()).append(",\"status\":").append(type.status().value()).append(",\"detail\":");
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
