package com.healthpartner.api.listing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

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

/**
 * Writes a list either as one JSON page or, for {@code Accept: application/x-ndjson}, as
 * a stream of one JSON object a line. The stream is written as rows arrive: each line is
 * encoded on its own and the response asks for the next row only when the connection
 * takes more, so an export of any size holds a few rows in memory. Exports running at
 * once are capped ({@link ExportSlots}).
 */
@Component
public class Listings {

	public static final MediaType NDJSON = MediaType.APPLICATION_NDJSON;

	private final JsonMapper mapper;

	private final ExportSlots slots;

	Listings(JsonMapper mapper, ExportSlots slots) {
		this.mapper = mapper;
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
			.bodyValue(record.toJson().getBytes(StandardCharsets.UTF_8));
	}

	public <T> Mono<ServerResponse> page(Page<T> page) {
		if (!page.data().stream().allMatch(JsonWritable.class::isInstance)) {
			return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(page);
		}
		StringBuilder json = new StringBuilder(64 + 320 * page.data().size()).append("{\"data\":[");
		for (int i = 0; i < page.data().size(); i++) {
			if (i > 0) {
				json.append(',');
			}
			((JsonWritable) page.data().get(i)).writeJson(json);
		}
		json.append("],\"next_cursor\":");
		if (page.nextCursor() != null) {
			JsonText.quote(json, page.nextCursor());
		}
		else {
			json.append("null");
		}
		return ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(json.append('}').toString().getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Streams {@code records}, an export of {@code partnerId}, once it has a slot. The
	 * slot is taken when the body is subscribed, before {@code records} is: a refusal is
	 * an error before the first line, answered {@code 429} like any error before the
	 * answer is committed, and does no database work. It is given back when the stream
	 * completes, fails or is cancelled by the client.
	 */
	public <T> Mono<ServerResponse> ndjson(UUID partnerId, Flux<T> records) {
		Flux<T> capped = Flux.using(() -> this.slots.acquire(partnerId), (slot) -> records, ExportSlots.Slot::release);
		BodyInserter<Flux<T>, ReactiveHttpOutputMessage> lines = (message, context) -> message
			.writeWith(capped.map((record) -> message.bufferFactory().wrap(line(record))));
		return ServerResponse.ok().contentType(NDJSON).body(lines);
	}

	/**
	 * What a {@code HEAD} of an export is answered: the status and headers of the stream,
	 * which has no {@code Content-Length}, without running it.
	 */
	public Mono<ServerResponse> ndjsonHead() {
		return ServerResponse.ok().contentType(NDJSON).build();
	}

	private byte[] line(Object record) {
		if (record instanceof JsonWritable writable) {
			StringBuilder line = new StringBuilder(320);
			writable.writeJson(line);
			return line.append('\n').toString().getBytes(StandardCharsets.UTF_8);
		}
		byte[] json = this.mapper.writeValueAsBytes(record);
		byte[] line = new byte[json.length + 1];
		System.arraycopy(json, 0, line, 0, json.length);
		line[json.length] = '\n';
		return line;
	}

}
