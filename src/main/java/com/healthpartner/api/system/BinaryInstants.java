package com.healthpartner.api.system;

import java.time.Instant;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.codec.Codec;
import io.r2dbc.postgresql.codec.CodecRegistry;
import io.r2dbc.postgresql.codec.PostgresTypeIdentifier;
import io.r2dbc.postgresql.codec.PostgresqlObjectId;
import io.r2dbc.postgresql.extension.CodecRegistrar;
import io.r2dbc.postgresql.message.Format;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Reads a binary {@code timestamptz} as an {@link Instant} straight from its microseconds
 * since 2000-01-01T00:00:00Z, and sends an instant bound as a parameter the same way. The
 * driver's own codec goes through a {@code LocalDateTime} and the session's zone rules
 * for every value read, and a page of records holds two per row; it sends an instant as
 * text, which PostgreSQL parses ({@code timestamptz_in}) for every execution. A parameter
 * of another type ({@code encode(value, dataType)}), and a null, stay the driver's.
 */
final class BinaryInstants implements CodecRegistrar {

	/** 2000-01-01T00:00:00Z, PostgreSQL's epoch, in Unix seconds. */
	private static final long POSTGRES_EPOCH = 946_684_800L;

	@Override
	public Publisher<Void> register(PostgresqlConnection connection, ByteBufAllocator allocator,
			CodecRegistry registry) {
		Codec<?> drivers = BinaryEncoder.drivers(registry, Instant.EPOCH);
		if (drivers != null) {
			registry.addFirst(new InstantCodec(drivers));
		}
		return Mono.empty();
	}

	/**
	 * PostgreSQL's binary {@code timestamptz} of an instant: microseconds since its
	 * epoch, rounded half up to the nearest microsecond; {@link Instant#MAX} and
	 * {@link Instant#MIN} are its infinities, as {@link #instant} reads them.
	 */
	static long micros(Instant instant) {
		if (instant.equals(Instant.MAX)) {
			return Long.MAX_VALUE;
		}
		if (instant.equals(Instant.MIN)) {
			return Long.MIN_VALUE;
		}
		long seconds = instant.getEpochSecond() - POSTGRES_EPOCH;
		return Math.multiplyExact(seconds, 1_000_000L) + (instant.getNano() + 500) / 1_000;
	}

	/**
	 * The instant of PostgreSQL's binary {@code timestamptz}, its two infinities
	 * included.
	 */
	static Instant instant(long micros) {
		if (micros == Long.MAX_VALUE) {
			return Instant.MAX;
		}
		if (micros == Long.MIN_VALUE) {
			return Instant.MIN;
		}
		return Instant.ofEpochSecond(POSTGRES_EPOCH + Math.floorDiv(micros, 1_000_000L),
				Math.floorMod(micros, 1_000_000L) * 1_000L);
	}

	/**
	 * One connection's codec of instants, the driver's for the rest: it describes itself
	 * as the codec of {@code Instant} and binary {@code timestamptz}, both ways.
	 */
	static final class InstantCodec extends BinaryEncoder {

		InstantCodec(Codec<?> drivers) {
			super(Instant.class, PostgresqlObjectId.TIMESTAMPTZ, drivers);
		}

		@Override
		ByteBuf write(Object value) {
			return buffer(8).writeLong(micros((Instant) value));
		}

		@Override
		public boolean canDecode(int dataType, Format format, Class<?> type) {
			return dataType == PostgresqlObjectId.TIMESTAMPTZ.getObjectId() && format == Format.FORMAT_BINARY
					&& type == Instant.class;
		}

		@Override
		public Instant decode(ByteBuf buffer, int dataType, Format format, Class<?> type) {
			return (buffer != null) ? instant(buffer.readLong()) : null;
		}

		@Override
		public Iterable<? extends PostgresTypeIdentifier> getDataTypes() {
			return List.of(PostgresqlObjectId.TIMESTAMPTZ);
		}

	}

}
