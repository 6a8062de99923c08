package com.healthpartner.api.json;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * Reads a request body into memory, never more than the body limit: a declared length
 * over it is refused before anything is read, and a body that grows past it while being
 * read is refused there ({@code 413 payload_too_large} either way).
 */
public final class LimitedBodies {

	private LimitedBodies() {
	}

	/** The body's bytes; {@code declaredLength} is the Content-Length, or -1. */
	public static Mono<byte[]> read(Flux<DataBuffer> body, long declaredLength, int maxBytes) {
		if (declaredLength > maxBytes) {
			return Mono.error(tooLarge(maxBytes));
		}
		return DataBufferUtils.join(body, maxBytes)
			.onErrorMap(DataBufferLimitException.class, (ex) -> tooLarge(maxBytes))
			.map((buffer) -> {
				try {
					byte[] bytes = new byte[buffer.readableByteCount()];
					buffer.read(bytes);
					return bytes;
				}
				finally {
					DataBufferUtils.release(buffer);
				}
			})
			.defaultIfEmpty(new byte[0]);
	}

	private static ApiException tooLarge(int maxBytes) {
		return new ApiException(ProblemType.PAYLOAD_TOO_LARGE,
				"The request body is larger than " + maxBytes + " bytes");
	}

}
