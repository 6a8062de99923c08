package com.healthpartner.api.system;

import java.util.List;
import java.util.UUID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
 * Sends an id bound as a parameter (a partner's, a record's, a key's) as its 16 bytes.
 * The driver sends it as text, which PostgreSQL parses ({@code uuid_in}) for every
 * execution; every keyed statement binds at least the partner's. A parameter of another
 * type, and a null, stay the driver's; reading ids stays the driver's (binary results
 * already).
 */
final class BinaryUuids implements CodecRegistrar {

	@Override
	public Publisher<Void> register(PostgresqlConnection connection, ByteBufAllocator allocator,
			CodecRegistry registry) {
		for (Codec<?> codec : registry) {
			if (codec.canEncode(new UUID(0, 0))) {
				registry.addFirst(new Encoder(codec, allocator));
				break;
			}
		}
		return Mono.empty();
	}

	/**
	 * Encodes only: it describes itself as the codec of {@code UUID} (the driver looks up
	 * encoders by type) and of no data type (nor decoders by data type).
	 */
	static final class Encoder implements Codec<UUID>, CodecMetadata {

		private final Codec<?> drivers;

		private final ByteBufAllocator allocator;

		Encoder(Codec<?> drivers, ByteBufAllocator allocator) {
			this.drivers = drivers;
			this.allocator = allocator;
		}

		@Override
		public boolean canDecode(int dataType, Format format, Class<?> type) {
			return false;
		}

		@Override
		public UUID decode(ByteBuf buffer, int dataType, Format format, Class<? extends UUID> type) {
			throw new UnsupportedOperationException("Encodes only");
		}

		@Override
		public boolean canEncode(Object value) {
			return value instanceof UUID;
		}

		@Override
		public boolean canEncodeNull(Class<?> type) {
			return this.drivers.canEncodeNull(type);
		}

		@Override
		public EncodedParameter encode(Object value) {
			UUID id = (UUID) value;
			return new EncodedParameter(Format.FORMAT_BINARY, PostgresqlObjectId.UUID.getObjectId(),
					Mono.fromSupplier(() -> this.allocator.buffer(16)
						.writeLong(id.getMostSignificantBits())
						.writeLong(id.getLeastSignificantBits())));
		}

		@Override
		public EncodedParameter encode(Object value, int dataType) {
			return (dataType == PostgresqlObjectId.UUID.getObjectId()) ? encode(value)
					: this.drivers.encode(value, dataType);
		}

		@Override
		public EncodedParameter encodeNull() {
			return this.drivers.encodeNull();
		}

		@Override
		public Class<?> type() {
			return UUID.class;
		}

		@Override
		public Iterable<Format> getFormats() {
			return List.of(Format.FORMAT_BINARY);
		}

		@Override
		public Iterable<? extends PostgresTypeIdentifier> getDataTypes() {
			return List.of();
		}

	}

}
