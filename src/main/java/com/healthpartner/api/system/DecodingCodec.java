package com.healthpartner.api.system;

import io.r2dbc.postgresql.client.EncodedParameter;
import io.r2dbc.postgresql.codec.Codec;

/**
 * A codec that only reads: it encodes nothing, so the driver never picks it for a
 * parameter ({@link TextBytes}, {@link PositionedViews}).
 */
abstract class DecodingCodec<T> implements Codec<T> {

	@Override
	public final boolean canEncode(Object value) {
		return false;
	}

	@Override
	public final boolean canEncodeNull(Class<?> type) {
		return false;
	}

	@Override
	public final EncodedParameter encode(Object value) {
		throw new UnsupportedOperationException("Decodes only");
	}

	@Override
	public final EncodedParameter encode(Object value, int dataType) {
		throw new UnsupportedOperationException("Decodes only");
	}

	@Override
	public final EncodedParameter encodeNull() {
		throw new UnsupportedOperationException("Decodes only");
	}

}
