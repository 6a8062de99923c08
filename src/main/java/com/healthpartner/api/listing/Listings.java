package com.healthpartner.api.listing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpOutputMessage;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;
import com.healthpartner.api.text.Utf8Bytes;
import com.healthpartner.api.web.BytesBody;

/**
 * Writes a list either as one JSON page or, for {@code Accept: application/x-ndjson}, as
 * a stream of one JSON object a line. The stream is written as rows arrive: lines are
 * gathered into writes of about {@link #WRITE_BYTES} bytes (one HTTP chunk and one buffer
 * each, instead of one a line) and the response asks for the next row only when the
 * connection takes more, so an export of any size holds a few hundred rows in memory.
 * Exports running at once are capped ({@link ExportSlots}).
 */
@Component
public class Listings {

	public static final MediaType NDJSON = MediaType.APPLICATION_NDJSON;

	/**
	 * Bytes of NDJSON lines gathered into one write. Rows arrive from the database in
	 * batches ({@code fetchSize}), so a write waits at most for the next batch; a line
	 * longer than this is written on its own.
	 */
	static final int WRITE_BYTES = 32 * 1024;

	/** How a page's answer begins, before its first record. */
	private static final byte[] PAGE_START = "{\"data\":[".getBytes(StandardCharsets.UTF_8);

	private final ExportSlots slots;

	Listings(ExportSlots slots) {
		this.slots = slots;
	}

	/**
	 * Whether the client asked for NDJSON: {@code application/x-ndjson} named with a
	 * quality at least that of {@code application/json} (or of a wildcard, when JSON is
	 * not named). A request that accepts neither is 406.
	 */
	public static boolean wantsNdjson(ServerRequest request) {
		List<MediaType> accepted;
		try {
			accepted = request.headers().accept();
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
		if (accepted.isEmpty()) {
			return false;
		}
		double ndjson = 0;
		double json = 0;
		double wildcard = 0;
		for (MediaType type : accepted) {
			double quality = type.getQualityValue();
			if (type.isWildcardType() || (type.isWildcardSubtype() && "application".equals(type.getType()))) {
				wildcard = Math.max(wildcard, quality);
			}
			else if (NDJSON.equalsTypeAndSubtype(type)) {
				ndjson = Math.max(ndjson, quality);
			}
			else if (MediaType.APPLICATION_JSON.equalsTypeAndSubtype(type)) {
				json = Math.max(json, quality);
			}
		}
		double jsonPreference = (json > 0) ? json : wildcard;
		if (ndjson > 0 && (ndjson > jsonPreference || (ndjson == jsonPreference && json == 0))) {
			return true;
		}
		if (jsonPreference > 0) {
			return false;
		}
		throw new ApiException(ProblemType.NOT_ACCEPTABLE,
				"This list is available as application/json or application/x-ndjson");
	}

	/** One record, {@code 200}. */
	public Mono<ServerResponse> one(JsonWritable record) {
		return ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(BytesBody.of(record.toJson().getBytes(StandardCharsets.UTF_8)));
	}

	public <T> Mono<ServerResponse> page(Page<T> page) {
		if (!page.data().stream().allMatch(JsonWritable.class::isInstance)) {
			return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(page);
		}
		StringBuilder json = new StringBuilder(128 + 320 * page.data().size()).append("{\"data\":[");
		for (int i = 0; i < page.data().size(); i++) {
			if (i > 0) {
				json.append(',');
			}
			((JsonWritable) page.data().get(i)).writeJson(json);
		}
		return page(json, page.nextCursor());
	}

	/**
	 * A page whose records are already JSON in UTF-8 ({@code views}, their objects in
	 * list order), copied into the answer as they are; {@code nextCursor} null on the
	 * last page.
	 */
	public Mono<ServerResponse> page(List<byte[]> views, String nextCursor) {
		byte[] end = end(new StringBuilder(64), nextCursor).toString().getBytes(StandardCharsets.UTF_8);
		return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(pageBody(views, end));
	}

	/**
	 * The body of a page, {@code views} between its start and {@code end}, with its
	 * {@code Content-Length}: written once, into a buffer of the connection's own (a
	 * direct one on the server, which the socket sends from), where an array built first
	 * was copied again by the server into such a buffer (a page of 50 metrics records is
	 * some 15 KB).
	 */
	static BodyInserter<List<byte[]>, ReactiveHttpOutputMessage> pageBody(List<byte[]> views, byte[] end) {
		int commas = Math.max(0, views.size() - 1);
		int bytes = PAGE_START.length + commas + end.length;
		for (byte[] view : views) {
			bytes += view.length;
		}
		int length = bytes;
		return (message, context) -> {
			message.getHeaders().setContentLength(length);
			return message.writeWith(Mono.fromSupplier(() -> {
				DataBuffer buffer = message.bufferFactory().allocateBuffer(length).write(PAGE_START);
				for (int i = 0; i < views.size(); i++) {
					if (i > 0) {
						buffer.write((byte) ',');
					}
					buffer.write(views.get(i));
				}
				return buffer.write(end);
			}));
		};
	}

	/** The answer of a page whose records {@code json} holds after its opening. */
	private static Mono<ServerResponse> page(StringBuilder json, String nextCursor) {
		return ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(BytesBody.of(end(json, nextCursor).toString().getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * Appends to {@code json} what follows a page's records: its next cursor, then the
	 * end.
	 */
	private static StringBuilder end(StringBuilder json, String nextCursor) {
		json.append("],\"next_cursor\":");
		if (nextCursor != null) {
			JsonText.quote(json, nextCursor);
		}
		else {
			json.append("null");
		}
		return json.append('}');
	}

	/**
	 * Streams {@code records}, an export of {@code partnerId} (each record JSON in UTF-8
	 * already: a stored view, a line as it is), once it has a slot. The slot is taken
	 * when the body is subscribed, before {@code records} is: a refusal is an error
	 * before the first line, answered {@code 429} like any error before the answer is
	 * committed, and does no database work. It is given back when the stream completes,
	 * fails or is cancelled by the client.
	 */
	public Mono<ServerResponse> ndjson(UUID partnerId, Flux<byte[]> records) {
		Flux<byte[]> capped = Flux.using(() -> this.slots.acquire(partnerId), (slot) -> records,
				ExportSlots.Slot::release);
		BodyInserter<Flux<byte[]>, ReactiveHttpOutputMessage> lines = (message, context) -> message
			.writeWith(writes(capped, message.bufferFactory()));
		return ServerResponse.ok().contentType(NDJSON).body(lines);
	}

	/**
	 * The lines of {@code records} (each the JSON of one in UTF-8, copied as it is),
	 * gathered into buffers of about {@link #WRITE_BYTES} bytes; the last, shorter one
	 * when the records are complete. A failure drops the lines not yet written: the
	 * response then ends without its final chunk, as it would have at that line.
	 */
	Flux<DataBuffer> writes(Flux<byte[]> records, DataBufferFactory buffers) {
		return Flux.defer(() -> {
			Lines batch = new Lines();
			return records.<DataBuffer>handle((record, sink) -> {
				batch.add(record);
				if (batch.length() >= WRITE_BYTES) {
					sink.next(batch.take(buffers));
				}
			}).concatWith(Mono.fromSupplier(() -> (batch.length() == 0) ? null : batch.take(buffers)));
		});
	}

	/**
	 * What a {@code HEAD} of an export is answered: the status and headers of the stream,
	 * which has no {@code Content-Length}, without running it.
	 */
	public Mono<ServerResponse> ndjsonHead() {
		return ServerResponse.ok().contentType(NDJSON).build();
	}

	/** The lines of one write as they are gathered. */
	private static final class Lines {

		private Utf8Bytes bytes = new Utf8Bytes(WRITE_BYTES + 1024);

		int length() {
			return this.bytes.length();
		}

		void add(byte[] line) {
			this.bytes.append(line).append('\n');
		}

		/** The lines gathered, as one buffer; the next lines go in a new array. */
		DataBuffer take(DataBufferFactory buffers) {
			DataBuffer lines = buffers.wrap(ByteBuffer.wrap(this.bytes.array(), 0, this.bytes.length()));
			this.bytes = new Utf8Bytes(WRITE_BYTES + 1024);
			return lines;
		}

	}

}
