package com.healthpartner.api.system;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.codec.Codec;
import io.r2dbc.postgresql.codec.CodecRegistry;
import io.r2dbc.postgresql.codec.PostgresqlObjectId;
import io.r2dbc.postgresql.extension.CodecRegistrar;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Sends the arrays the service binds ({@code UUID[]}, {@code Instant[]}, {@code Long[]},
 * {@code String[]}: the rows of a write batch, of an audit batch) in PostgreSQL's binary
 * array format. The driver writes every array as text, which PostgreSQL then parses
 * element by element ({@code array_in}, {@code uuid_in}, {@code timestamptz_in}); in
 * binary an id is its 16 bytes, a time its microseconds since 2000-01-01 (to the nearest
 * microsecond, as PostgreSQL rounds a time it parses) and a text its UTF-8 bytes, with no
 * quoting. Each array keeps the type the driver gives it ({@code uuid[]},
 * {@code timestamptz[]}, {@code int8[]}, {@code varchar[]}); a null array, and anything
 * else, stays the driver's.
 */
final class BinaryArrays implements CodecRegistrar {

	@Override
	public Publisher<Void> register(PostgresqlConnection connection, ByteBufAllocator allocator,
			CodecRegistry registry) {
		List<Encoder<?>> encoders = List.of(
				new Encoder<>(UUID[].class, PostgresqlObjectId.UUID_ARRAY, PostgresqlObjectId.UUID,
						BinaryEncoder.drivers(registry, new UUID[0]),
						(buffer, id) -> buffer.writeInt(16)
							.writeLong(id.getMostSignificantBits())
							.writeLong(id.getLeastSignificantBits())),
				new Encoder<>(Instant[].class, PostgresqlObjectId.TIMESTAMPTZ_ARRAY, PostgresqlObjectId.TIMESTAMPTZ,
						BinaryEncoder.drivers(registry, new Instant[0]),
						(buffer, instant) -> buffer.writeInt(8).writeLong(BinaryInstants.micros(instant))),
				new Encoder<>(Long[].class, PostgresqlObjectId.INT8_ARRAY, PostgresqlObjectId.INT8,
						BinaryEncoder.drivers(registry, new Long[0]),
						(buffer, number) -> buffer.writeInt(8).writeLong(number)),
				new Encoder<>(String[].class, PostgresqlObjectId.VARCHAR_ARRAY, PostgresqlObjectId.VARCHAR,
						BinaryEncoder.drivers(registry, new String[0]), BinaryArrays::writeText));
		for (Encoder<?> encoder : encoders) {
			if (encoder.drivers != null) {
				registry.addFirst(encoder);
			}
		}
		return Mono.empty();
	}

	private static void writeText(ByteBuf buffer, String text) {
		int length = buffer.writerIndex();
		buffer.writeInt(0);
		int written = ByteBufUtil.writeUtf8(buffer, text);
		buffer.setInt(length, written);
	}

	/** How one element is written: its length, then its bytes. */
	@FunctionalInterface
	interface ElementWriter<E> {

		void write(ByteBuf buffer, E element);

	}

	/**
	 * The binary encoder of one array type: its elements (of {@code elementType}) each
	 * written by {@code writer}.
	 */
	static final class Encoder<E> extends BinaryEncoder {

		private final PostgresqlObjectId elementType;

		private final ElementWriter<E> writer;

		Encoder(Class<E[]> type, PostgresqlObjectId arrayType, PostgresqlObjectId elementType, Codec<?> drivers,
				ElementWriter<E> writer) {
			super(type, arrayType, drivers);
			this.elementType = elementType;
			this.writer = writer;
		}

		/**
		 * PostgreSQL's binary array ({@code array_recv}): dimensions, whether it holds a
		 * null, the element type, length and lower bound of its one dimension, then each
		 * element as its length ({@code -1}: null) and its bytes.
		 */
		@Override
		ByteBuf write(Object value) {
			@SuppressWarnings("unchecked")
			E[] elements = (E[]) value;
			boolean nulls = false;
			for (E element : elements) {
				nulls |= element == null;
			}
			ByteBuf buffer = buffer(20 + elements.length * 24);
			buffer.writeInt((elements.length > 0) ? 1 : 0)
				.writeInt(nulls ? 1 : 0)
				.writeInt(this.elementType.getObjectId());
			if (elements.length > 0) {
				buffer.writeInt(elements.length).writeInt(1);
			}
			for (E element : elements) {
				if (element == null) {
					buffer.writeInt(-1);
				}
				else {
					this.writer.write(buffer, element);
				}
			}
			return buffer;
		}

	}

}
