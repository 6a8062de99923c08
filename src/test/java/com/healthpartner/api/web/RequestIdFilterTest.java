package com.healthpartner.api.web;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import com.healthpartner.api.problem.RequestIds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request id on its own, without a server: echoed when sane, replaced otherwise, and
 * on the answer whatever the rest of the chain does.
 */
class RequestIdFilterTest {

	private final RequestIdFilter filter = new RequestIdFilter();

	@Test
	void aSaneIdSentByTheClientIsEchoed() {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.get("/api/v1/auth/me").header(RequestIds.HEADER, "trace-42.a_b"));
		this.filter.filter(exchange, (e) -> e.getResponse().setComplete()).as(StepVerifier::create).verifyComplete();
		assertThat(exchange.getResponse().getHeaders().getFirst(RequestIds.HEADER)).isEqualTo("trace-42.a_b");
		assertThat(RequestIds.of(exchange)).isEqualTo("trace-42.a_b");
	}

	@Test
	void anIdWithCharactersOutsideTheRuleIsReplacedByANewOne() {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.get("/api/v1/auth/me").header(RequestIds.HEADER, "x\"; drop"));
		this.filter.filter(exchange, (e) -> e.getResponse().setComplete()).as(StepVerifier::create).verifyComplete();
		assertThat(exchange.getResponse().getHeaders().getFirst(RequestIds.HEADER))
			.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
	}

	@Test
	void theIdIsOnTheAnswerEvenWhenTheChainFails() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/v1/auth/me"));
		this.filter.filter(exchange, (e) -> Mono.error(new IllegalStateException("refused")))
			.onErrorResume((failure) -> exchange.getResponse().setComplete())
			.as(StepVerifier::create)
			.verifyComplete();
		assertThat(exchange.getResponse().getHeaders().getFirst(RequestIds.HEADER)).isEqualTo(RequestIds.of(exchange));
	}

}
