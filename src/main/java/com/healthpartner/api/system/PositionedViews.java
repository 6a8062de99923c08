package com.healthpartner.api.system;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.codec.CodecRegistry;
import io.r2dbc.postgresql.extension.CodecRegistrar;
import io.r2dbc.postgresql.message.Format;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Records in list order as one {@code bytea[]} value, each element a record's ordering
 * time ({@code timestamptz_send}), id ({@code uuid_send}) and stored view, read from its
 * binary form straight into their parts: each view is copied once, from the driver's
 * buffer into its own array, as a {@code text} read by {@link TextBytes} is. A list page
 * is read as one such value instead of a row a record (the statement: {@link #column});
 * the driver has no codec of {@code bytea[]}, so no other read changes. It encodes
 * nothing.
 */
public final class PositionedViews {

	/** PostgreSQL's {@code bytea[]} ({@code _bytea}). */
	static final int BYTEA_ARRAY = 1001;

	private static final int POSITION_BYTES = 8 + 16;

	private static final PositionedViews NONE = new PositionedViews(new long[0], new long[0], new long[0],
			new byte[0][]);

	/** Each record's ordering time, PostgreSQL's microseconds since 2000. */
	private final long[] micros;

	/** The first eight bytes of each record's id, then the last eight. */
	private final long[] idHigh;

	private final long[] idLow;

	/** Each record's view, as stored. */
	private final byte[][] views;

	private PositionedViews(long[] micros, long[] idHigh, long[] idLow, byte[][] views) {
		this.micros = micros;
		this.idHigh = idHigh;
		this.idLow = idLow;
		this.views = views;
	}

	/**
	 * The select-list expression of such a value: the records of {@code table} (alias
	 * {@code r}) where {@code where} holds, in the order of {@code time} then {@code id},
	 * at most {@code limit} (an SQL expression) of them. The order is the sub-query's,
	 * which an array built from a sub-query keeps.
	 */
	public static String column(String table, String time, String where, String limit) {
		return "array(select timestamptz_send(r." + time + ") || uuid_send(r.id) || textsend(r.view) from " + table
				+ " r where " + where + " order by r." + time + ", r.id limit " + limit + ")";
	}

	/** How many records the value holds. */
	public int size() {
		return this.views.length;
	}

	/** The ordering time of record {@code i}. */
	public Instant at(int i) {
		return BinaryInstants.instant(this.micros[i]);
	}

	/** The id of record {@code i}. */
	public UUID id(int i) {
		return new UUID(this.idHigh[i], this.idLow[i]);
	}

	/** The views of the first {@code count} records. */
	public List<byte[]> views(int count) {
		return Arrays.asList(this.views).subList(0, count);
	}

	static final class Registrar implements CodecRegistrar {

		@Override
		public Publisher<Void> register(PostgresqlConnection connection, ByteBufAllocator allocator,
				CodecRegistry registry) {
			registry.addFirst(new Decoder());
			return Mono.empty();
		}

	}

	/**
	 * The codec: it describes itself by {@link #canDecode} only, as {@link TextBytes}
	 * does.
	 */
	static final class Decoder extends DecodingCodec<PositionedViews> {

		@Override
		public boolean canDecode(int dataType, Format format, Class<?> type) {
			return type == PositionedViews.class && dataType == BYTEA_ARRAY && format == Format.FORMAT_BINARY;
		}

		/**
		 * An array's binary form: its dimensions, a null flag and its element type; each
		 * dimension's length and lower bound; then each element's length and bytes.
		 */
		@Override
		public PositionedViews decode(ByteBuf buffer, int dataType, Format format,
				Class<? extends PositionedViews> type) {
			if (buffer == null) {
				return null;
			}
			int at = buffer.readerIndex();
			int dimensions = buffer.getInt(at);
			if (dimensions == 0) {
				return NONE;
			}
			if (dimensions != 1) {
				throw new IllegalArgumentException("Records as views have one dimension, not " + dimensions);
			}
			int count = buffer.getInt(at + 12);
			at += 20;
			long[] micros = new long[count];
			long[] idHigh = new long[count];
			long[] idLow = new long[count];
			byte[][] views = new byte[count][];
			for (int i = 0; i < count; i++) {
				int length = buffer.getInt(at);
				micros[i] = buffer.getLong(at + 4);
				idHigh[i] = buffer.getLong(at + 12);
				idLow[i] = buffer.getLong(at + 20);
				views[i] = new byte[length - POSITION_BYTES];
				buffer.getBytes(at + 4 + POSITION_BYTES, views[i]);
				at += 4 + length;
			}
			return new PositionedViews(micros, idHigh, idLow, views);
		}

	}

}
