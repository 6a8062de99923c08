package com.healthpartner.api.problem;

import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.util.HtmlUtils;

/**
 * {@code GET /problems/{code}}: the page each problem's {@code type} URI points to.
 */
@Configuration(proxyBeanMethods = false)
class ProblemPagesRouter {

	@Bean
	RouterFunction<ServerResponse> problemPages() {
		return RouterFunctions.route()
			.GET("/problems/{code}",
					(request) -> ProblemType.fromCode(request.pathVariable("code"))
						.map((type) -> ServerResponse.ok().contentType(MediaType.TEXT_HTML).bodyValue(page(type)))
						.orElseGet(() -> Mono
							.error(ApiException.notFound("No problem is called " + request.pathVariable("code")))))
			.build();
	}

	private static String page(ProblemType type) {
		String title = HtmlUtils.htmlEscape(type.title());
		return """
				<!doctype html>
				<html lang="en"><head><meta charset="utf-8"><title>%s</title></head>
				<body><h1>%s</h1><p>HTTP status %d, code <code>%s</code></p><p>%s</p>
				<p>Every error body is application/problem+json with <code>code</code>, <code>detail</code> and
				<code>request_id</code>; quote the request id when you contact support.</p></body></html>
				""".formatted(title, title, type.status().value(), type.code(),
				HtmlUtils.htmlEscape(type.description()));
	}

}
