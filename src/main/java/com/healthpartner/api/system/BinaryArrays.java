package com.healthpartner.api.system;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.client.EncodedParameter;
import io.r2dbc.postgresql.codec.Codec;
import io.r2dbc.postgresql.codec.CodecMetadata;
import io.r2dbc.postgresql.codec.CodecRegistry;
import io.r2dbc.postgresql.codec.PostgresTypeIdentifier;
import io.r2dbc.postgresql.codec.PostgresqlObjectId;
import io.r2dbc.postgresql.extension.CodecRegistrar;
import io.r2dbc.postgresql.message.Format;
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
		List<Encoder<?>> encoders = new ArrayList<>();
		encoders.add(new Encoder<>(UUID[].class, PostgresqlObjectId.UUID_ARRAY, PostgresqlObjectId.UUID, allocator,
				(buffer, id) -> buffer.writeInt(16)
					.writeLong(id.getMostSignificantBits())
					.writeLong(id.getLeastSignificantBits())));
		encoders
			.add(new Encoder<>(Instant[].class, PostgresqlObjectId.TIMESTAMPTZ_ARRAY, PostgresqlObjectId.TIMESTAMPTZ,
					allocator, (buffer, instant) -> buffer.writeInt(8).writeLong(BinaryInstants.micros(instant))));
		encoders.add(new Encoder<>(Long[].class, PostgresqlObjectId.INT8_ARRAY, PostgresqlObjectId.INT8, allocator,
				(buffer, number) -> buffer.writeInt(8).writeLong(number)));
		encoders.add(new Encoder<>(String[].class, PostgresqlObjectId.VARCHAR_ARRAY, PostgresqlObjectId.VARCHAR,
				allocator, BinaryArrays::writeText));
		for (Encoder<?> encoder : encoders) {
			encoder.fallback = driversCodec(registry, encoder.type);
			if (encoder.fallback != null) {
				registry.addFirst(encoder);
			}
		}
		return Mono.empty();
	}

	private static Codec<?> driversCodec(CodecRegistry registry, Class<?> type) {
		Object empty = java.lang.reflect.Array.newInstance(type.getComponentType(), 0);
		for (Codec<?> codec : registry) {
			if (!(codec instanceof Encoder) && codec.canEncode(empty)) {
				return codec;
			}
		}
		return null;
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
	 * The binary encoder of one array type. The driver looks codecs up by their metadata,
	 * so it describes itself as the codec of that Java type; decoding, nulls and
	 * parameters of another declared type stay the driver's.
	 */
	static final class Encoder<E> implements Codec<Object>, CodecMetadata {

		private final Class<?> type;

		private final PostgresqlObjectId arrayType;

		private final PostgresqlObjectId elementType;

		private final ByteBufAllocator allocator;

		private final ElementWriter<E> writer;

		private Codec<?> fallback;

		Encoder(Class<E[]> type, PostgresqlObjectId arrayType, PostgresqlObjectId elementType,
				ByteBufAllocator allocator, ElementWriter<E> writer) {
			this.type = type;
			this.arrayType = arrayType;
			this.elementType = elementType;
			this.allocator = allocator;
			this.writer = writer;
		}

		@Override
		public boolean canDecode(int dataType, Format format, Class<?> type) {
			return false;
		}

		@Override
		public Object decode(ByteBuf buffer, int dataType, Format format, Class<?> type) {
			throw new UnsupportedOperationException("Encodes only");
		}

		@Override
		public boolean canEncode(Object value) {
			return value != null && value.getClass() == this.type;
		}

		@Override
		public boolean canEncodeNull(Class<?> type) {
			return false;
		}

		@Override
		public EncodedParameter encode(Object value) {
			@SuppressWarnings("unchecked")
			E[] elements = (E[]) value;
			return new EncodedParameter(Format.FORMAT_BINARY, this.arrayType.getObjectId(),
					Mono.fromSupplier(() -> write(elements)));
		}

		@Override
		public EncodedParameter encode(Object value, int dataType) {
			return (dataType == this.arrayType.getObjectId()) ? encode(value) : this.fallback.encode(value, dataType);
		}

		@Override
		public EncodedParameter encodeNull() {
			return this.fallback.encodeNull();
		}

		/**
		 * PostgreSQL's binary array ({@code array_recv}): dimensions, whether it holds a
		 * null, the element type, length and lower bound of its one dimension, then each
		 * element as its length ({@code -1}: null) and its bytes.
		 */
		ByteBuf write(E[] elements) {
			boolean nulls = false;
			for (E element : elements) {
				nulls |= element == null;
			}
			ByteBuf buffer = this.allocator.buffer(20 + elements.length * 24);
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

		@Override
		public Class<?> type() {
			return this.type;
		}

		@Override
		public Iterable<Format> getFormats() {
			return List.of(Format.FORMAT_BINARY);
		}

		/**
		 * None: the driver caches its decoders by these types, and this codec decodes
		 * nothing.
		 */
		@Override
		public Iterable<? extends PostgresTypeIdentifier> getDataTypes() {
			return List.of();
		}

	}

}
