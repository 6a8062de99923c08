package com.healthpartner.api.edge;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;

/**
 * Answers the web layer can give from memory to a request whose head the HTTP edge holds,
 * before Reactor Netty and WebFlux take the request up (for the one answer of that kind,
 * see {@code gate.ApiGate}). Asked only for a request that nothing else is being answered
 * for on its connection, that keeps the connection open and expects no
 * {@code 100 Continue}; the edge then reads and drops its body.
 */
public interface EarlyAnswers {

	/**
	 * The whole answer to {@code request}, whose path (without the query) is
	 * {@code path}, recorded as the web layer records its answers; or null when the
	 * request goes on to the web layer, in which case nothing was decided or counted for
	 * it.
	 */
	FullHttpResponse answer(HttpRequest request, String path);

}
