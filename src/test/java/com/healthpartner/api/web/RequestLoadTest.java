package com.healthpartner.api.web;

import org.junit.jupiter.api.Test;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The load is the share of the recent samples that found a request under way: it rises
 * while one is, and falls back once none is.
 */
class RequestLoadTest {

	@Test
	void theLoadFollowsTheRequestsUnderWay() {
		InFlightRequests requests = new InFlightRequests();
		RequestLoad load = new RequestLoad(requests);
		load.sample();
		assertThat(load.busy()).isZero();
		Sinks.Empty<Void> handler = Sinks.empty();
		Mono<Void> handled = requests.handle((ServerWebExchange) null, (exchange) -> handler.asMono());
		StepVerifier.create(handled).then(() -> {
			assertThat(requests.handling()).isOne();
			// a second of samples with the request under way
			for (int i = 0; i < 100; i++) {
				load.sample();
			}
			assertThat(load.busy()).isCloseTo(1 - Math.pow(0.99, 100), within(1e-9)).isGreaterThan(0.6);
			for (int i = 0; i < 400; i++) {
				load.sample();
			}
			assertThat(load.busy()).isGreaterThan(0.98);
		}).then(handler::tryEmitEmpty).verifyComplete();
		assertThat(requests.handling()).isZero();
		for (int i = 0; i < 300; i++) {
			load.sample();
		}
		assertThat(load.busy()).isLessThan(0.05);
	}

}
