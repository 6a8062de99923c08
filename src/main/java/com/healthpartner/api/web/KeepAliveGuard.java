package com.healthpartner.api.web;

import reactor.core.scheduler.Schedulers;

import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.stereotype.Component;

/**
 * Works around a Reactor Netty 1.3.x defect (reactor/reactor-netty#4361): on an HTTP/1.1
 * keep-alive connection, a request that arrives before the previous exchange has fully
 * terminated is queued, and if that queued request is then answered synchronously (a key
 * from the cache, a rate-limit refusal) the server stops reading the connection; the
 * client's next request waits until it times out. Handling every exchange on another
 * thread than the one that dispatches it keeps the answer out of that re-entrant path.
 * Remove it once the service runs on a Reactor Netty release with the fix.
 */
@Component
class KeepAliveGuard implements HttpHandlerDecoratorFactory {

	@Override
	public HttpHandler apply(HttpHandler handler) {
		return (request, response) -> handler.handle(request, response).subscribeOn(Schedulers.parallel());
	}

}
