package com.healthpartner.api.web;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.context.SmartLifecycle;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.system.HeldContext;

/**
 * Our own drain on shutdown, right in front of every handler of {@code /api} and
 * {@code /admin}. Reactor Netty's graceful shutdown can declare itself complete while a
 * request that came on a kept-alive connection is still being handled; that request's
 * write would still be committed, but what it leaves for the periodic writers (its audit
 * event) could miss their last write. So on stop, before the web server's own graceful
 * shutdown, requests that have not reached their handler yet are refused with {@code 503}
 * (nothing is written; {@code Connection: close}), and the stop waits until every handler
 * under way has finished.
 */
@Component
public class InFlightRequests implements SmartLifecycle {

	private static final Duration MAX_DRAIN = Duration.ofSeconds(20);

	private final AtomicInteger handling = new AtomicInteger();

	private final Sinks.Empty<Void> drained = Sinks.empty();

	private volatile boolean running;

	private volatile boolean stopping;

	/**
	 * Hands a request of {@code /api} or {@code /admin} that passed its checks to its
	 * handler, counted until it ends; during a stop, a {@code 503} instead.
	 */
	public Mono<Void> handle(ServerWebExchange exchange, WebFilterChain chain) {
		// counted before the check, so that a stop never misses a request that passed it
		this.handling.incrementAndGet();
		if (this.stopping) {
			finished();
			return Mono.error(new ApiException(ProblemType.SERVICE_UNAVAILABLE,
					"The service is shutting down; nothing was written. Retry: another instance will answer.",
					List.of(), Map.of(HttpHeaders.RETRY_AFTER, "1", HttpHeaders.CONNECTION, "close")));
		}
		// the handler's operators find the context here, not at the web server
		return HeldContext.held(chain.filter(exchange)).doFinally((signal) -> finished());
	}

	/** How many handlers are under way. */
	public int handling() {
		return this.handling.get();
	}

	private void finished() {
		if (this.handling.decrementAndGet() == 0 && this.stopping) {
			this.drained.tryEmitEmpty();
		}
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop(Runnable callback) {
		this.stopping = true;
		if (this.handling.get() == 0) {
			this.drained.tryEmitEmpty();
		}
		this.drained.asMono().timeout(MAX_DRAIN).onErrorResume((timeout) -> Mono.empty()).doFinally((signal) -> {
			this.running = false;
			callback.run();
		}).subscribe();
	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Before the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}). */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 512;
	}

}
