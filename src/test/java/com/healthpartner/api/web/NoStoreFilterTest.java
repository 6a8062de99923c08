package com.healthpartner.api.web;

import java.net.URI;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.test.StepVerifier;

import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Answers that may hold health data, credentials or partner details are never cached; the
 * documentation and problem pages may be.
 */
class NoStoreFilterTest {

	@ParameterizedTest
	@CsvSource(nullValues = "none", value = { "/api/v1/health/metrics, no-store", "/admin/v1/partners, no-store",
			"/%61pi/v1/auth/me, no-store", "/problems/not_found, none", "/docs, none" })
	void answersOfTheApiAndAdminPathsAreNotStored(String path, String cacheControl) {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.method(HttpMethod.GET, URI.create(path)));
		new NoStoreFilter().filter(exchange, (e) -> e.getResponse().setComplete())
			.as(StepVerifier::create)
			.verifyComplete();
		assertThat(exchange.getResponse().getHeaders().getCacheControl()).isEqualTo(cacheControl);
	}

}
