package com.healthpartner.api.signature;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;

import com.healthpartner.api.json.LimitedBodies;

/**
 * Reads a request body once, within the body limit (413 beyond it, before anything is
 * parsed), and gives the handlers a request whose body can be read again from memory.
 */
final class BufferedBody {

	private BufferedBody() {
	}

	static Mono<byte[]> read(ServerHttpRequest request, int maxBytes) {
		HttpHeaders headers = request.getHeaders();
		long length = headers.getContentLength();
		if (length == 0 || (length < 0 && !headers.containsHeader(HttpHeaders.TRANSFER_ENCODING))) {
			return Mono.just(new byte[0]);
		}
		return LimitedBodies.read(request.getBody(), length, maxBytes);
	}

	/** The request with the body read by {@link #read} in its place. */
	static ServerHttpRequest replaying(ServerHttpRequest request, byte[] body) {
		return new ServerHttpRequestDecorator(request) {

			@Override
			public Flux<DataBuffer> getBody() {
				return Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(body)));
			}

		};
	}

}
