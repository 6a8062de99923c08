package com.healthpartner.api.signature;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.function.Function;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;

import com.healthpartner.api.crypto.Digests;

/**
 * A signed request whose body is streamed by its handler rather than read first: each
 * chunk goes on as it arrives and into a SHA-256, and at the end of the body
 * {@code check} gets the hash in hex; the body ends normally if the check completes, or
 * with the check's error (the handler, which commits only at the end, then keeps
 * nothing).
 */
final class StreamedBody extends ServerHttpRequestDecorator {

	private final Function<String, Mono<DataBuffer>> check;

	StreamedBody(ServerHttpRequest request, Function<String, Mono<DataBuffer>> check) {
		super(request);
		this.check = check;
	}

	@Override
	public Flux<DataBuffer> getBody() {
		return Flux.defer(() -> {
			MessageDigest sha256 = Digests.newSha256();
			return super.getBody().doOnNext((chunk) -> {
				try (DataBuffer.ByteBufferIterator buffers = chunk.readableByteBuffers()) {
					while (buffers.hasNext()) {
						ByteBuffer buffer = buffers.next();
						sha256.update(buffer);
					}
				}
			}).concatWith(Mono.defer(() -> this.check.apply(HexFormat.of().formatHex(sha256.digest()))));
		});
	}

}
