package com.healthpartner.api.system;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.codec.CodecRegistry;
import io.r2dbc.postgresql.codec.PostgresqlObjectId;
import io.r2dbc.postgresql.extension.CodecRegistrar;
import io.r2dbc.postgresql.message.Format;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Reads a {@code text} column asked for as {@code byte[]} as the UTF-8 bytes PostgreSQL
 * sent (a connection's {@code client_encoding} is always UTF-8 with this driver, and a
 * {@code text} value is the same bytes in the text and the binary format). A list page
 * passes each record's stored view through into its answer, which is UTF-8 too: read as a
 * {@code String} every view was decoded only to be encoded again. The driver has no codec
 * of {@code text} to {@code byte[]}, so no other read changes; it encodes nothing.
 */
final class TextBytes implements CodecRegistrar {

	@Override
	public Publisher<Void> register(PostgresqlConnection connection, ByteBufAllocator allocator,
			CodecRegistry registry) {
		registry.addFirst(new Decoder());
		return Mono.empty();
	}

	/**
	 * The codec: it describes itself by {@link #canDecode} only (no
	 * {@code CodecMetadata}), since the driver would otherwise cache it as the encoder of
	 * {@code byte[]} as well.
	 */
	static final class Decoder extends DecodingCodec<byte[]> {

		@Override
		public boolean canDecode(int dataType, Format format, Class<?> type) {
			return type == byte[].class && (dataType == PostgresqlObjectId.TEXT.getObjectId()
					|| dataType == PostgresqlObjectId.VARCHAR.getObjectId());
		}

		@Override
		public byte[] decode(ByteBuf buffer, int dataType, Format format, Class<? extends byte[]> type) {
			return (buffer != null) ? ByteBufUtil.getBytes(buffer) : null;
		}

	}

}
