package com.healthpartner.api.system;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database driver's message decoder keeps a message cut by the end of a read in a
 * buffer of its unread bytes only, and still hands every message whole, whatever reads it
 * arrives in.
 */
class FrameCumulationTest {

	private static final ByteBufAllocator ALLOCATOR = ByteBufAllocator.DEFAULT;

	@Test
	void aCumulationWithNoRoomMovesOnlyItsUnreadBytes() {
		// a pooled buffer filled to the end of its segment, all read but a message's
		// first bytes: Netty's merging cumulator would grow it in place, moving it whole
		ByteBuf cumulation = ALLOCATOR.buffer(64);
		int read = cumulation.maxFastWritableBytes() - 4;
		cumulation.writeBytes(bytes(read, 'a')).writeBytes("tail".getBytes(StandardCharsets.US_ASCII));
		cumulation.readerIndex(read);
		assertThat(cumulation.maxFastWritableBytes()).isZero();
		assertThat(cumulation.maxWritableBytes()).isGreaterThan(100);
		ByteBuf in = ALLOCATOR.buffer(100).writeBytes(bytes(100, 'b'));

		ByteBuf grown = FrameCumulation.cumulate(ALLOCATOR, cumulation, in);

		assertThat(grown).isNotSameAs(cumulation);
		assertThat(grown.readerIndex()).isZero();
		assertThat(grown.toString(StandardCharsets.US_ASCII)).isEqualTo("tail" + "b".repeat(100));
		assertThat(cumulation.refCnt()).isZero();
		assertThat(in.refCnt()).isZero();
		grown.release();
	}

	@Test
	void aCumulationWithRoomTakesTheReadInPlace() {
		ByteBuf cumulation = ALLOCATOR.buffer(256).writeBytes("tail".getBytes(StandardCharsets.US_ASCII));
		ByteBuf in = ALLOCATOR.buffer(16).writeBytes(bytes(10, 'b'));

		ByteBuf merged = FrameCumulation.cumulate(ALLOCATOR, cumulation, in);

		assertThat(merged).isSameAs(cumulation);
		assertThat(merged.toString(StandardCharsets.US_ASCII)).isEqualTo("tail" + "b".repeat(10));
		assertThat(in.refCnt()).isZero();
		merged.release();
	}

	@Test
	void aCumulationWithNothingUnreadGivesWayToTheRead() {
		ByteBuf cumulation = ALLOCATOR.buffer(16).writeBytes(bytes(8, 'a'));
		cumulation.readerIndex(8);
		ByteBuf in = ALLOCATOR.buffer(16).writeBytes(bytes(10, 'b'));

		ByteBuf taken = FrameCumulation.cumulate(ALLOCATOR, cumulation, in);

		assertThat(taken).isSameAs(in);
		assertThat(cumulation.refCnt()).isZero();
		taken.release();
	}

	@Test
	void everyMessageArrivesWholeAndTheHandlerLeaves() {
		// the driver's decoder: a type byte, then a length that counts itself
		EmbeddedChannel channel = new EmbeddedChannel(FrameCumulation.INSTANCE,
				new LengthFieldBasedFrameDecoder(Integer.MAX_VALUE, 1, 4, -4, 0));
		ByteBuf stream = Unpooled.buffer();
		List<String> sent = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			String body = "row-" + i + "-" + "x".repeat(i * 7 % 500);
			sent.add(body);
			stream.writeByte('D').writeInt(4 + body.length()).writeCharSequence(body, StandardCharsets.US_ASCII);
		}
		// reads of uneven sizes, most cutting a message
		int[] sizes = { 3, 1000, 17, 4096, 5, 65536 };
		for (int i = 0; stream.isReadable(); i++) {
			int size = Math.min(sizes[i % sizes.length], stream.readableBytes());
			channel.writeInbound(stream.readRetainedSlice(size));
		}
		stream.release();

		assertThat(channel.pipeline().get(FrameCumulation.class)).isNull();
		List<String> received = new ArrayList<>();
		for (ByteBuf frame; (frame = channel.readInbound()) != null;) {
			assertThat(frame.readByte()).isEqualTo((byte) 'D');
			assertThat(frame.readInt()).isEqualTo(frame.readableBytes() + 4);
			received.add(frame.toString(StandardCharsets.US_ASCII));
			frame.release();
		}
		assertThat(received).isEqualTo(sent);
		assertThat(channel.finish()).isFalse();
	}

	@Test
	void aDatabaseClientsChannelsStartWithItTheServersDoNot() {
		GivenLoops server = GivenLoops.epoll("frame-cumulation-test", 1);
		try {
			EventLoopGroup group = server.onServer(true);
			SocketChannel client = GivenLoops.of(group).onChannel(SocketChannel.class, group);
			assertThat(client.pipeline().first()).isSameAs(FrameCumulation.INSTANCE);
			SocketChannel served = server.onChannel(SocketChannel.class, group);
			assertThat(served.pipeline().get(FrameCumulation.class)).isNull();
		}
		finally {
			server.dispose();
		}
	}

	private static byte[] bytes(int count, char value) {
		return String.valueOf(value).repeat(count).getBytes(StandardCharsets.US_ASCII);
	}

}
