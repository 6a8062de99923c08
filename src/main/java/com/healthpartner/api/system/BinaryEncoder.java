package com.healthpartner.api.system;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.r2dbc.postgresql.client.EncodedParameter;
import io.r2dbc.postgresql.codec.Codec;
import io.r2dbc.postgresql.codec.CodecMetadata;
import io.r2dbc.postgresql.codec.CodecRegistry;
import io.r2dbc.postgresql.codec.PostgresTypeIdentifier;
import io.r2dbc.postgresql.codec.PostgresqlObjectId;
import io.r2dbc.postgresql.message.Format;
import reactor.core.publisher.Mono;

/**
 * A parameter type the service sends in PostgreSQL's binary format instead of the text
 * the driver writes (which PostgreSQL parses again for every execution): one Java type
 * ({@code type}) as one PostgreSQL type ({@code sent}). The driver's own codec of that
 * Java type ({@code drivers}) keeps the rest: nulls, and a parameter declared as another
 * type. The driver looks codecs up by their metadata, so an encoder describes itself as
 * the codec of its Java type in binary, and of no data type: it decodes nothing (unless a
 * subclass says otherwise).
 * <p>
 * A parameter's bytes go in a heap buffer of its own, not one of the connection's pool:
 * until r2dbc-postgresql 1.1.3 (issue 734) the driver did not release a parameter whose
 * statement was cancelled before its Bind message was written (a request cut off, a
 * deadline passed), and a pooled buffer lost so kept its memory for good, while a heap
 * buffer is collected like any object. Kept with the fixed driver: the bytes are copied
 * into the Bind message either way.
 */
abstract class BinaryEncoder implements Codec<Object>, CodecMetadata {

	private final Class<?> type;

	private final PostgresqlObjectId sent;

	/** The driver's codec of the same Java type: null where the driver has none. */
	final Codec<?> drivers;

	BinaryEncoder(Class<?> type, PostgresqlObjectId sent, Codec<?> drivers) {
		this.type = type;
		this.sent = sent;
		this.drivers = drivers;
	}

	/** A buffer for a parameter's bytes, of {@code capacity} to begin with. */
	static ByteBuf buffer(int capacity) {
		return Unpooled.buffer(capacity);
	}

	/**
	 * The driver's codec of values like {@code sample} in {@code registry}, none of the
	 * service's; null when the driver has none.
	 */
	static Codec<?> drivers(CodecRegistry registry, Object sample) {
		for (Codec<?> codec : registry) {
			if (!(codec instanceof BinaryEncoder) && codec.canEncode(sample)) {
				return codec;
			}
		}
		return null;
	}

	/**
	 * The binary form of {@code value}, in a {@link #buffer}, written when the driver
	 * sends the parameter.
	 */
	abstract ByteBuf write(Object value);

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
		return this.drivers.canEncodeNull(type);
	}

	@Override
	public EncodedParameter encode(Object value) {
		return new EncodedParameter(Format.FORMAT_BINARY, this.sent.getObjectId(),
				Mono.fromSupplier(() -> write(value)));
	}

	@Override
	public EncodedParameter encode(Object value, int dataType) {
		return (dataType == this.sent.getObjectId()) ? encode(value) : this.drivers.encode(value, dataType);
	}

	@Override
	public EncodedParameter encodeNull() {
		return this.drivers.encodeNull();
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
	 * None: the driver caches its decoders by these types, and an encoder decodes
	 * nothing.
	 */
	@Override
	public Iterable<? extends PostgresTypeIdentifier> getDataTypes() {
		return List.of();
	}

}
