package com.healthpartner.api.system;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

/**
 * A held context is the request's context: what the web server and the filters put in it
 * is what the operators behind the holder read.
 */
class HeldContextTest {

	@Test
	void operatorsBehindTheHolderReadTheContextOfTheChain() {
		Mono<String> read = Mono.deferContextual((context) -> Mono.just(context.get("request")));
		HeldContext.held(read)
			.contextWrite(Context.of("request", "r-1"))
			.as(StepVerifier::create)
			.expectNext("r-1")
			.verifyComplete();
	}

	@Test
	void aContextWrittenAfterTheHolderIsSeenToo() {
		Mono<String> read = Mono
			.deferContextual((context) -> Mono.just(context.<String>get("request") + context.<String>get("partner")));
		HeldContext.held(read.contextWrite(Context.of("partner", "/p-1")))
			.contextWrite(Context.of("request", "r-1"))
			.as(StepVerifier::create)
			.expectNext("r-1/p-1")
			.verifyComplete();
	}

}
