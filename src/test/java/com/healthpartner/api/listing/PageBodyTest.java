package com.healthpartner.api.listing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.web.reactive.function.BodyInserter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A page's body is its views between the page's start and end, byte for byte, with a
 * {@code Content-Length} of exactly its bytes, written as one buffer of the connection's
 * allocator (direct on the server) and released once written.
 */
class PageBodyTest {

	private static final byte[] LAST = "],\"next_cursor\":null}".getBytes(StandardCharsets.UTF_8);

	@Test
	void anEmptyLastPageIsItsStartAndEnd() {
		Written written = write(List.of(), LAST);

		assertThat(written.text()).isEqualTo("{\"data\":[],\"next_cursor\":null}");
		assertThat(written.contentLength).isEqualTo(written.bytes.length);
	}

	@Test
	void viewsOfAnyCharactersAreCopiedAsTheyAreBetweenCommasWithTheirExactLength() {
		List<String> views = List.of("{\"n\":1,\"note\":\"Ça va? 🏋️ ✓\"}", "{}",
				"{\"n\":3,\"text\":\"\\\"quoted\\\"\"}");
		byte[] end = "],\"next_cursor\":\"eyJ0IjoxfQ\"}".getBytes(StandardCharsets.UTF_8);

		Written written = write(views.stream().map((view) -> view.getBytes(StandardCharsets.UTF_8)).toList(), end);

		assertThat(written.text())
			.isEqualTo("{\"data\":[" + String.join(",", views) + "],\"next_cursor\":\"eyJ0IjoxfQ\"}");
		assertThat(written.contentLength).isEqualTo(written.bytes.length);
		assertThat(written.buffers).isEqualTo(1);
		assertThat(written.direct).isTrue();
		assertThat(written.released).isTrue();
	}

	@Test
	void aPageOfManyViewsIsOneBufferOfItsLength() {
		List<byte[]> views = new ArrayList<>();
		StringBuilder expected = new StringBuilder("{\"data\":[");
		for (int i = 0; i < 1_000; i++) {
			String view = "{\"n\":" + i + ",\"value\":" + (i * 7) + "}";
			views.add(view.getBytes(StandardCharsets.UTF_8));
			expected.append((i > 0) ? "," : "").append(view);
		}

		Written written = write(views, LAST);

		assertThat(written.text()).isEqualTo(expected.append("],\"next_cursor\":null}").toString());
		assertThat(written.contentLength).isEqualTo(written.bytes.length);
		assertThat(written.buffers).isEqualTo(1);
	}

	/**
	 * The page's body written into a response whose buffers are direct ones of Netty's.
	 */
	private static Written write(List<byte[]> views, byte[] end) {
		MockServerHttpResponse response = new MockServerHttpResponse(
				new NettyDataBufferFactory(new UnpooledByteBufAllocator(true)));
		Written written = new Written();
		response.setWriteHandler((body) -> Flux.from(body).doOnNext(written::take).then());
		BodyInserter<List<byte[]>, ? super MockServerHttpResponse> inserter = Listings.pageBody(views, end);

		StepVerifier.create(inserter.insert(response, new NoContext())).expectComplete().verify(Duration.ofSeconds(5));

		written.contentLength = response.getHeaders().getContentLength();
		return written;
	}

	private static final class Written {

		private byte[] bytes = new byte[0];

		private int buffers;

		private boolean direct;

		private boolean released;

		private long contentLength;

		void take(DataBuffer buffer) {
			ByteBuf netty = ((NettyDataBuffer) buffer).getNativeBuffer();
			this.buffers++;
			this.direct = netty.isDirect();
			byte[] read = new byte[buffer.readableByteCount()];
			buffer.read(read);
			byte[] all = new byte[this.bytes.length + read.length];
			System.arraycopy(this.bytes, 0, all, 0, this.bytes.length);
			System.arraycopy(read, 0, all, this.bytes.length, read.length);
			this.bytes = all;
			// what the server does once the buffer is written
			DataBufferUtils.release(buffer);
			this.released = netty.refCnt() == 0;
		}

		String text() {
			return new String(this.bytes, StandardCharsets.UTF_8);
		}

	}

	/** The inserter needs nothing of its context. */
	private static final class NoContext implements BodyInserter.Context {

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

	}

}
