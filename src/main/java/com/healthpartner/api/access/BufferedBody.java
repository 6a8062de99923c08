package com.healthpartner.api.access;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;

import com.healthpartner.api.web.ApiException;
import com.healthpartner.api.web.ProblemType;

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
		if (length > maxBytes) {
			return Mono.error(tooLarge(maxBytes));
		}
		if (length == 0 || (length < 0 && !headers.containsHeader(HttpHeaders.TRANSFER_ENCODING))) {
			return Mono.just(new byte[0]);
		}
		return DataBufferUtils.join(request.getBody(), maxBytes)
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

	/** The request with the body read by {@link #read} in its place. */
	static ServerHttpRequest replaying(ServerHttpRequest request, byte[] body) {
		return new ServerHttpRequestDecorator(request) {

			@Override
			public Flux<DataBuffer> getBody() {
				return Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(body)));
			}

		};
	}

	private static ApiException tooLarge(int maxBytes) {
		return new ApiException(ProblemType.PAYLOAD_TOO_LARGE,
				"The request body is larger than " + maxBytes + " bytes");
	}

}
