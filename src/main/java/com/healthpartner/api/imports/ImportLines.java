package com.healthpartner.api.imports;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ReferenceCountUtil;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.Wrapped;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * Stores the body of an import as it arrives: its lines go into {@code import_lines} by
 * {@code COPY … FROM STDIN}, a segment at a time ({@link Segment}), on a connection of
 * its own (never one of an event loop's pool: an upload may last minutes), one CopyData
 * message per chunk received, so that no more than a chunk is held whatever the body's
 * size. r2dbc-postgresql's {@code copyIn(sql, publisher)} would join the whole publisher
 * into one buffer first; {@code fromMany} with one inner publisher per chunk streams.
 * While the service answers requests, an upload is read at a bounded rate ({@link Pace}).
 */
final class ImportLines {

	private static final String COPY = "copy import_lines (import_id, line, body) from stdin";

	/** A segment of an upload ends at the first row end after this many bytes of it. */
	private static final long SEGMENT_BYTES = 16L << 20;

	/** Or after it has been open this long. */
	private static final long SEGMENT_NANOS = 1_000_000_000L;

	/**
	 * The lock the receiving connection holds for the whole upload (its session's: it
	 * goes with the connection if the instance dies, and
	 * {@link ImportRepository#abandoned} then lets the import go).
	 */
	static final String RECEIVING_LOCK = "hashtextextended(cast(%s as text), 12)";

	/** PostgreSQL's SQLSTATE for a byte sequence that is not valid in the encoding. */
	private static final String NOT_UTF8 = "22021";

	private final ConnectionFactory unpooled;

	private final BooleanSupplier busy;

	private final long busyBytesPerSecond;

	private final int chunkLines;

	private final long chunkBytes;

	/**
	 * Stores uploads through {@code unpooled} connections, at most
	 * {@code busyBytesPerSecond} while the service is {@code busy} answering requests,
	 * cut into chunks of {@code chunkLines} lines and about {@code chunkBytes} bytes.
	 */
	ImportLines(ConnectionFactory unpooled, BooleanSupplier busy, long busyBytesPerSecond, int chunkLines,
			long chunkBytes) {
		this.unpooled = unpooled;
		this.busy = busy;
		this.busyBytesPerSecond = busyBytesPerSecond;
		this.chunkLines = chunkLines;
		this.chunkBytes = chunkBytes;
	}

	/**
	 * Stores {@code body}'s lines for {@code importId}, a segment at a time, once the
	 * upload's lock is held and {@code admitted} has completed (the import's row made: an
	 * import is never {@code receiving} without its lock held, so no instance takes it
	 * for abandoned; an error of {@code admitted} ends the upload before its body is
	 * read); once the body has ended whole, {@code stored} of the lines stored (blank
	 * lines are not) and the chunks they make, run while the upload's lock is still held
	 * (so that the import is never without either a receiving upload or its next status).
	 * Over {@code maxBytes}: {@code 413}; on any failure what was stored is deleted.
	 */
	<T> Mono<T> store(UUID importId, Mono<?> admitted, Flux<DataBuffer> body, long maxBytes, ByteBufAllocator allocator,
			Function<Stored, Mono<T>> stored) {
		CopyRows rows = new CopyRows(importId, maxBytes, this.chunkLines, this.chunkBytes);
		// the driver answers a failed stream with a COPY failure of its own: the cause (a
		// body over the limit, a signature that does not match it) is kept
		AtomicReference<ApiException> refused = new AtomicReference<>();
		Pace pace = new Pace();
		Segment segment = new Segment();
		Flux<Part> parts = body.doOnError(ApiException.class, refused::set)
			.delayUntil((chunk) -> pace.before(chunk.readableByteCount()))
			.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
			.concatMapIterable((chunk) -> {
				try {
					ByteBuf out = rows.rows(chunk, allocator);
					if (out == null) {
						refused.set(new ApiException(ProblemType.PAYLOAD_TOO_LARGE,
								"The import is larger than " + maxBytes + " bytes; split it"));
						throw refused.get();
					}
					return segment.cut(out, rows.rowsEnd());
				}
				finally {
					DataBufferUtils.release(chunk);
				}
			})
			.concatWith(Mono.fromSupplier(() -> new Part(rows.end(allocator), false)))
			.doOnDiscard(Part.class, (part) -> ReferenceCountUtil.safeRelease(part.rows()));
		return Mono
			.usingWhen(
					Mono.from(this.unpooled.create()), (
							connection) -> run(connection, "set statement_timeout = 0")
								.then(run(connection,
										"select pg_advisory_lock(" + RECEIVING_LOCK.formatted("'" + importId + "'")
												+ ")"))
								.then(admitted.then())
								.then(parts.windowUntil(Part::endsSegment)
									.concatMap((rowsOfSegment) -> postgres(connection).copyIn(COPY)
										.fromMany(rowsOfSegment.map((part) -> Mono.just(part.rows())))
										.build())
									.then())
								// the segments stored before a failure go with it
								.onErrorResume((failure) -> run(connection,
										"delete from import_lines where import_id = '" + importId + "'")
									.onErrorResume((ignored) -> Mono.empty())
									.then(Mono.error(failure)))
								.then(Mono.defer(() -> stored.apply(new Stored(rows.stored(), rows.chunkStarts())))),
					Connection::close, (connection, failure) -> connection.close(), Connection::close)
			.onErrorMap((failure) -> refused.get() != null && failure != refused.get(), (failure) -> refused.get())
			.onErrorMap(R2dbcException.class,
					(failure) -> NOT_UTF8.equals(failure.getSqlState()) ? new ApiException(ProblemType.MALFORMED_JSON,
							"The import is not valid UTF-8; send its lines encoded in UTF-8 (nothing was stored)")
							: failure);
	}

	/** Rows of the COPY stream, and whether its segment ends after them. */
	private record Part(ByteBuf rows, boolean endsSegment) {
	}

	/**
	 * Cuts the COPY stream into segments, each a COPY of its own (its own transaction),
	 * at the end of a row once a segment holds {@link #SEGMENT_BYTES} or has been open
	 * for {@link #SEGMENT_NANOS}: an upload never holds one transaction open for long,
	 * which would hold back the change feed's horizon (the oldest transaction still
	 * running) for every partner. The import stays {@code receiving} until the last
	 * segment is stored; an upload that fails deletes the segments stored so far with its
	 * import.
	 */
	private static final class Segment {

		private long bytes;

		private long started = System.nanoTime();

		List<Part> cut(ByteBuf out, int rowsEnd) {
			this.bytes += out.readableBytes();
			if (rowsEnd < 0 || (this.bytes < SEGMENT_BYTES && System.nanoTime() - this.started < SEGMENT_NANOS)) {
				return List.of(new Part(out, false));
			}
			Part last = new Part(out.retainedSlice(0, rowsEnd), true);
			Part next = new Part(out.retainedSlice(rowsEnd, out.readableBytes() - rowsEnd), false);
			out.release();
			this.bytes = next.rows().readableBytes();
			this.started = System.nanoTime();
			return List.of(last, next);
		}

	}

	/** What an upload stored: its lines, and the first line of each of its chunks. */
	record Stored(long lines, long[] chunkStarts) {
	}

	/**
	 * Holds an upload to {@code busyBytesPerSecond} while the service is busy (the body
	 * is not read meanwhile, so TCP slows the client down), and lets it go at full speed
	 * otherwise: an upload is stored by the CPU partners' requests need too.
	 */
	private final class Pace {

		private long next;

		Mono<Void> before(int bytes) {
			long now = System.nanoTime();
			if (!ImportLines.this.busy.getAsBoolean()) {
				this.next = now;
				return Mono.empty();
			}
			long wait = Math.max(0, this.next - now);
			this.next = Math.max(this.next, now) + bytes * 1_000_000_000L / ImportLines.this.busyBytesPerSecond;
			return (wait > 1_000_000) ? Mono.delay(Duration.ofNanos(wait)).then() : Mono.empty();
		}

	}

	private static Mono<Void> run(Connection connection, String sql) {
		return Flux.from(connection.createStatement(sql).execute()).flatMap((result) -> result.map((row) -> 1)).then();
	}

	private static PostgresqlConnection postgres(Connection connection) {
		Connection unwrapped = connection;
		while (!(unwrapped instanceof PostgresqlConnection) && unwrapped instanceof Wrapped<?> wrapped) {
			unwrapped = (Connection) wrapped.unwrap();
		}
		return (PostgresqlConnection) unwrapped;
	}

}
