package com.healthpartner.api.system;

import java.time.Instant;
import java.util.List;

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
		for (Codec<?> codec : registry) {
			if (codec.canEncode(Instant.EPOCH)) {
				registry.addFirst(new InstantCodec(codec, allocator));
				break;
			}
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
	 * One connection's codec of instants, the driver's for the rest. The driver looks
	 * codecs up by their metadata, so it describes itself as the codec of {@code Instant}
	 * and binary {@code timestamptz}.
	 */
	static final class InstantCodec implements Codec<Instant>, CodecMetadata {

		private final Codec<?> drivers;

		private final ByteBufAllocator allocator;

		InstantCodec(Codec<?> drivers, ByteBufAllocator allocator) {
			this.drivers = drivers;
			this.allocator = allocator;
		}

		@Override
		public boolean canDecode(int dataType, Format format, Class<?> type) {
			return dataType == PostgresqlObjectId.TIMESTAMPTZ.getObjectId() && format == Format.FORMAT_BINARY
					&& type == Instant.class;
		}

		@Override
		public Instant decode(ByteBuf buffer, int dataType, Format format, Class<? extends Instant> type) {
			return (buffer != null) ? instant(buffer.readLong()) : null;
		}

		@Override
		public boolean canEncode(Object value) {
			return value instanceof Instant;
		}

		@Override
		public boolean canEncodeNull(Class<?> type) {
			return this.drivers.canEncodeNull(type);
		}

		@Override
		public EncodedParameter encode(Object value) {
			long micros = micros((Instant) value);
			return new EncodedParameter(Format.FORMAT_BINARY, PostgresqlObjectId.TIMESTAMPTZ.getObjectId(),
					Mono.fromSupplier(() -> this.allocator.buffer(8).writeLong(micros)));
		}

		@Override
		public EncodedParameter encode(Object value, int dataType) {
			return (dataType == PostgresqlObjectId.TIMESTAMPTZ.getObjectId()) ? encode(value)
					: this.drivers.encode(value, dataType);
		}

		@Override
		public EncodedParameter encodeNull() {
			return this.drivers.encodeNull();
		}

		@Override
		public Class<?> type() {
			return Instant.class;
		}

		@Override
		public Iterable<Format> getFormats() {
			return List.of(Format.FORMAT_BINARY);
		}

		@Override
		public Iterable<? extends PostgresTypeIdentifier> getDataTypes() {
			return List.of(PostgresqlObjectId.TIMESTAMPTZ);
		}

	}

}
