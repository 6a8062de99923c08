package com.healthpartner.api.system;

import java.util.UUID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.codec.Codec;
import io.r2dbc.postgresql.codec.CodecRegistry;
import io.r2dbc.postgresql.codec.PostgresqlObjectId;
import io.r2dbc.postgresql.extension.CodecRegistrar;
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
		Codec<?> drivers = BinaryEncoder.drivers(registry, new UUID(0, 0));
		if (drivers != null) {
			registry.addFirst(new Encoder(drivers));
		}
		return Mono.empty();
	}

	/** An id as its 16 bytes. */
	static final class Encoder extends BinaryEncoder {

		Encoder(Codec<?> drivers) {
			super(UUID.class, PostgresqlObjectId.UUID, drivers);
		}

		@Override
		ByteBuf write(Object value) {
			UUID id = (UUID) value;
			return buffer(16).writeLong(id.getMostSignificantBits()).writeLong(id.getLeastSignificantBits());
		}

	}

}
