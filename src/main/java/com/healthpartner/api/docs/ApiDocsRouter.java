package com.healthpartner.api.docs;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code GET /v3/api-docs} (JSON) and {@code /v3/api-docs.yaml}: the maintained document,
 * not one generated from code. Functional routes are matched before springdoc's annotated
 * endpoint at the same paths, so springdoc only contributes the Swagger UI at
 * {@code /docs}, which loads this document. No API key: these paths are outside
 * {@code /api/v1}.
 */
@Configuration(proxyBeanMethods = false)
class ApiDocsRouter {

	static final MediaType YAML = MediaType.parseMediaType("application/yaml");

	@Bean
	RouterFunction<ServerResponse> apiDocsRoutes(ApiDocument document) {
		return RouterFunctions.route()
			.GET("/v3/api-docs",
					(request) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(document.json()))
			.GET("/v3/api-docs.yaml", (request) -> ServerResponse.ok().contentType(YAML).bodyValue(document.yaml()))
			.build();
	}

}
