package com.healthpartner.api.system;

import java.util.function.Function;

import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Holds a request's subscriber context at one point of its chain. Reactor operators ask
 * their subscriber for the context whenever they discard an element or are cancelled (to
 * find a discard hook), and when they subscribe; without a holder on the way, each
 * question walks subscriber by subscriber up to the web server, through every filter and
 * handler operator of the request (its cost: docs/performance.md). The context is the
 * same either way (it is immutable and set when the chain is subscribed); only the walk
 * ends here.
 */
public final class HeldContext {

	private static final Function<Context, Context> SAME = Function.identity();

	private HeldContext() {
	}

	public static <T> Mono<T> held(Mono<T> mono) {
		return mono.contextWrite(SAME);
	}

}
