package com.healthpartner.api.web;

import java.nio.ByteBuffer;

import reactor.core.publisher.Mono;

import org.springframework.http.ReactiveHttpOutputMessage;
import org.springframework.web.reactive.function.BodyInserter;

/**
 * A body that is already bytes (every JSON answer the service writes itself), written as
 * one buffer with its {@code Content-Length}: what {@code bodyValue(byte[])} sends,
 * without looking for a reactive adapter of {@code byte[]} and for a message writer among
 * the codecs on every answer.
 */
public final class BytesBody {

	private BytesBody() {
	}

	public static BodyInserter<byte[], ReactiveHttpOutputMessage> of(byte[] bytes) {
		return of(bytes, bytes.length);
	}

	/** The body of the first {@code length} bytes of {@code bytes}, without a copy. */
	public static BodyInserter<byte[], ReactiveHttpOutputMessage> of(byte[] bytes, int length) {
		return (message, context) -> {
			message.getHeaders().setContentLength(length);
			return message.writeWith(Mono.just(message.bufferFactory().wrap(ByteBuffer.wrap(bytes, 0, length))));
		};
	}

}
