package com.healthpartner.api.system;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * How the database driver's message decoder keeps the message that the end of a read cut,
 * to add the next read to: a larger buffer holds only that message's bytes. The decoder's
 * default (Netty's merging cumulator) grows the buffer of the last read in place, and a
 * pooled buffer that outgrows its segment is moved by copying all of its capacity, the
 * messages already decoded included: on a result of many rows, most of every read was
 * copied twice (docs/performance.md). Put first in a connection's pipeline
 * ({@link GivenLoops#of}); on the first read it sets the decoder's cumulator and leaves.
 */
@Sharable
final class FrameCumulation extends ChannelInboundHandlerAdapter {

	static final FrameCumulation INSTANCE = new FrameCumulation();

	private FrameCumulation() {
	}

	@Override
	public void channelRead(ChannelHandlerContext context, Object message) {
		ByteToMessageDecoder frames = context.pipeline().get(LengthFieldBasedFrameDecoder.class);
		if (frames != null) {
			frames.setCumulator(FrameCumulation::cumulate);
			context.pipeline().remove(this);
		}
		context.fireChannelRead(message);
	}

	/**
	 * {@code in} added to {@code cumulation}: as Netty's merging cumulator does, but
	 * where the cumulation has no room for it without being moved, both are copied into a
	 * new buffer, the cumulation's unread bytes only. Releases {@code in}, and
	 * {@code cumulation} when it returns another buffer.
	 */
	static ByteBuf cumulate(ByteBufAllocator allocator, ByteBuf cumulation, ByteBuf in) {
		int added = in.readableBytes();
		if (cumulation == in || !cumulation.isReadable() || added <= cumulation.maxFastWritableBytes()) {
			return ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(allocator, cumulation, in);
		}
		int kept = cumulation.readableBytes();
		try {
			ByteBuf grown = allocator.buffer(allocator.calculateNewCapacity(kept + added, Integer.MAX_VALUE));
			try {
				grown.writeBytes(cumulation, cumulation.readerIndex(), kept).writeBytes(in, in.readerIndex(), added);
			}
			catch (RuntimeException | Error failure) {
				grown.release();
				throw failure;
			}
			cumulation.release();
			return grown;
		}
		finally {
			in.release();
		}
	}

}
