package com.healthpartner.api.web;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
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

	/**
	 * The body of {@code length} bytes that {@code write} puts into the server's own
	 * buffer (direct memory, which the socket takes as it is): for an answer joined from
	 * parts, so that the parts are copied once, not into an array that the server then
	 * copies again. The buffer is taken only when the answer is written, and released on
	 * every path on which it is not sent; a {@code write} that does not write exactly
	 * {@code length} bytes fails the answer.
	 */
	public static BodyInserter<Void, ReactiveHttpOutputMessage> written(int length, Consumer<DataBuffer> write) {
		return (message, context) -> {
			message.getHeaders().setContentLength(length);
			DataBuffer buffer = message.bufferFactory().allocateBuffer(length);
			try {
				write.accept(buffer);
				if (buffer.readableByteCount() != length) {
					throw new IllegalStateException(
							"A body of " + length + " bytes written as " + buffer.readableByteCount());
				}
			}
			catch (RuntimeException ex) {
				DataBufferUtils.release(buffer);
				return Mono.error(ex);
			}
			return message.writeWith(Mono.just(buffer));
		};
	}

}
