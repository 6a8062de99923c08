package com.healthpartner.api.edge;

import io.netty.channel.Channel;
import reactor.netty.Connection;
import reactor.netty.NettyInbound;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;

/**
 * Lets a handler that streams a request's body somewhere durable (an import's upload)
 * take it for as long as the client needs: the edge then times the body out only when no
 * byte of it arrives for the read timeout while the service waits for it, instead of when
 * it is not whole within the read timeout of its first byte.
 */
public final class LongUploads {

	private LongUploads() {
	}

	/**
	 * From now on, the body of {@code request} is timed by the gaps between its chunks.
	 */
	public static void allow(ServerHttpRequest request) {
		Object inbound = ServerHttpRequestDecorator.getNativeRequest(request);
		if (inbound instanceof NettyInbound netty) {
			netty.withConnection((Connection connection) -> {
				Channel channel = connection.channel();
				HttpEdge edge = channel.pipeline().get(HttpEdge.class);
				if (edge != null) {
					if (channel.eventLoop().inEventLoop()) {
						edge.streamBody();
					}
					else {
						channel.eventLoop().execute(edge::streamBody);
					}
				}
			});
		}
	}

}
