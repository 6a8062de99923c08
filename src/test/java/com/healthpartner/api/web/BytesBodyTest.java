package com.healthpartner.api.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.web.reactive.function.BodyInserter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A body written into the server's buffer: what is sent, its length, and that the buffer
 * is released when the answer fails before it is sent.
 */
class BytesBodyTest {

	private static final BodyInserter.Context CONTEXT = new BodyInserter.Context() {

		@Override
		public List<HttpMessageWriter<?>> messageWriters() {
			return List.of();
		}

		@Override
		public Optional<ServerHttpRequest> serverRequest() {
			return Optional.empty();
		}

		@Override
		public Map<String, Object> hints() {
			return Map.of();
		}

	};

	private final List<ByteBuf> taken = new ArrayList<>();

	private final NettyDataBufferFactory factory = new NettyDataBufferFactory(new UnpooledByteBufAllocator(true)) {

		@Override
		public NettyDataBuffer allocateBuffer(int initialCapacity) {
			NettyDataBuffer buffer = super.allocateBuffer(initialCapacity);
			BytesBodyTest.this.taken.add(buffer.getNativeBuffer());
			return buffer;
		}

	};

	@Test
	void thePartsAreSentAsOneBufferWithTheirLength() {
		MockServerHttpResponse response = new MockServerHttpResponse(this.factory);
		byte[] view = "{\"id\":\"é\"}".getBytes(StandardCharsets.UTF_8);

		StepVerifier.create(BytesBody.written(view.length + 2, (body) -> {
			body.write((byte) '[');
			body.write(view);
			body.write((byte) ']');
		}).insert(response, CONTEXT)).verifyComplete();

		assertThat(response.getHeaders().getContentLength()).isEqualTo(view.length + 2);
		StepVerifier.create(response.getBodyAsString()).expectNext("[{\"id\":\"é\"}]").verifyComplete();
		assertThat(this.taken).hasSize(1);
		assertThat(this.taken.get(0).isDirect()).isTrue();
	}

	@Test
	void aBodyShorterThanItsLengthFailsAndItsBufferIsReleased() {
		MockServerHttpResponse response = new MockServerHttpResponse(this.factory);

		StepVerifier
			.create(BytesBody.written(5, (body) -> body.write("abc".getBytes(StandardCharsets.UTF_8)))
				.insert(response, CONTEXT))
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(IllegalStateException.class)
				.hasMessage("A body of 5 bytes written as 3"))
			.verify();

		assertThat(this.taken).hasSize(1);
		assertThat(this.taken.get(0).refCnt()).isZero();
	}

	@Test
	void aWriterThatFailsFailsTheAnswerAndItsBufferIsReleased() {
		MockServerHttpResponse response = new MockServerHttpResponse(this.factory);

		StepVerifier.create(BytesBody.written(3, (DataBuffer body) -> {
			body.write((byte) 'a');
			throw new IllegalArgumentException("no view");
		}).insert(response, CONTEXT)).expectErrorMessage("no view").verify();

		assertThat(this.taken).hasSize(1);
		assertThat(this.taken.get(0).refCnt()).isZero();
	}

}
