package com.healthpartner.api.edge;

import java.util.concurrent.atomic.AtomicBoolean;

import reactor.netty.Connection;
import reactor.netty.NettyInbound;

import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;

/**
 * Tells a request that waits for its client from one that waits for the service, for the
 * request deadline: time spent waiting for a body the client does not send is never the
 * database's.
 */
public final class ClientWaits {

	private ClientWaits() {
	}

	/**
	 * Whether the exchange's connection is waiting for the rest of the request's body.
	 * Asked only when a deadline passes, so it need not be cheap.
	 */
	public static boolean waitingForBody(ServerWebExchange exchange) {
		Object request = ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest());
		if (!(request instanceof NettyInbound inbound)) {
			return false;
		}
		AtomicBoolean waiting = new AtomicBoolean();
		inbound.withConnection((Connection connection) -> {
			HttpEdge edge = connection.channel().pipeline().get(HttpEdge.class);
			waiting.set(edge != null && edge.waitingForBody());
		});
		return waiting.get();
	}

}
