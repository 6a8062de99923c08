package com.healthpartner.api.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.idempotency.IdempotencyRepository.KeyId;
import com.healthpartner.api.text.JsonWritable;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.web.BytesBody;

/**
 * Writes a record and answers {@code 201} (or {@code 200} for an update or an unchanged
 * record, with {@code Record-Outcome}), honouring {@code Idempotency-Key}: per partner
 * and endpoint, for 24 hours, the same body (compared as JSON) gets the stored first
 * answer with {@code Idempotent-Replayed: true}, a different body 422, and a request
 * while the first is in flight 409. Only successes are stored, in the transaction that
 * writes the record, so a key never stands for a record that does not exist.
 */
@Component
public class IdempotentCreates {

	public static final String HEADER = "Idempotency-Key";

	public static final String REPLAYED = "Idempotent-Replayed";

	static final Duration RETENTION = Duration.ofHours(24);

	/** The stored outcome of a batch's answer (a record's write stores its own). */
	private static final String BATCH = "batch";

	/**
	 * How long a claim holds without an answer beyond the request deadline
	 * ({@code APP_REQUEST_TIMEOUT}), which ends every request that holds one. A claim
	 * whose release failed (the database went away under its request) or whose instance
	 * crashed thus runs out a second after its request could last: a partner retrying the
	 * key gets {@code 409} only that long. A request that committed in time has made its
	 * key answer for its record; one still committing holds the key's row, so a new claim
	 * waits for it and then finds that answer.
	 */
	static final Duration CLAIM_MARGIN = Duration.ofSeconds(1);

	private static final Pattern PRINTABLE_ASCII = Pattern.compile("[\\x20-\\x7E]{1,255}");

	private final IdempotencyRepository keys;

	private final TransactionalOperator transaction;

	private final JsonMapper mapper;

	private final Clock clock;

	private final Duration claimLease;

	IdempotentCreates(IdempotencyRepository keys, TransactionalOperator transaction, JsonMapper mapper, Clock clock,
			@Value("${app.request-timeout:2500ms}") Duration requestTimeout) {
		this.claimLease = requestTimeout.plus(CLAIM_MARGIN);
		this.keys = keys;
		this.transaction = transaction;
		this.mapper = mapper;
		this.clock = clock;
	}

	/** The request's {@code Idempotency-Key}: null when absent, an error when bad. */
	public static String key(ServerRequest request, FieldErrors errors) {
		List<String> values = request.headers().header(HEADER);
		if (values.isEmpty()) {
			return null;
		}
		String key = values.get(0);
		if (values.size() > 1 || !PRINTABLE_ASCII.matcher(key).matches() || key.isBlank()) {
			errors.add(HEADER, "must be sent once, 1 to 255 printable ASCII characters");
			return null;
		}
		return key;
	}

	/**
	 * Runs {@code insert} (a record write that must not happen twice, which writes its
	 * own audit event) unless the key answers for it. {@code body} is the validated
	 * request body.
	 */
	public Mono<ServerResponse> create(UUID partnerId, String endpoint, String key, JsonNode body,
			Supplier<Mono<Created>> insert) {
		if (key == null) {
			// one statement (or, for a client record id, statements each safe on its own)
			return insert.get()
				.flatMap((created) -> answer(created.outcome(), created.location(), encode(created.view()), false));
		}
		return once(partnerId, endpoint, key, body, insert);
	}

	/**
	 * Runs {@code apply} (the writes of a batch's items, which write their own changes
	 * and audit events) in one transaction, unless the key answers for it, and answers
	 * {@code 200} with the results it gives. A batch that fails (the database gone, the
	 * request's deadline passed) thus writes nothing at all, with or without a key.
	 */
	public Mono<ServerResponse> batch(UUID partnerId, String endpoint, String key, JsonNode body,
			Supplier<Mono<JsonWritable>> apply) {
		Supplier<Mono<Created>> insert = () -> apply.get().map((results) -> new Created(null, null, results));
		if (key == null) {
			return Mono.defer(insert)
				.as(this.transaction::transactional)
				.flatMap((created) -> answer(null, null, encode(created.view()), false));
		}
		return once(partnerId, endpoint, key, body, insert);
	}

	private Mono<ServerResponse> once(UUID partnerId, String endpoint, String key, JsonNode body,
			Supplier<Mono<Created>> insert) {
		KeyId id = new KeyId(partnerId, endpoint, key);
		byte[] requestHash = CanonicalJson.sha256(body);
		return claimOrAnswer(id, requestHash, insert, 3);
	}

	private Mono<ServerResponse> claimOrAnswer(KeyId id, byte[] requestHash, Supplier<Mono<Created>> insert,
			int attempts) {
		Instant now = this.clock.instant();
		UUID token = Ids.unique();
		return this.keys.claim(id, requestHash, token, now, now.plus(this.claimLease), now.plus(RETENTION))
			.flatMap((claimed) -> claimed ? createClaimed(id, token, insert) : this.keys.find(id, now)
				.flatMap((stored) -> answer(stored, requestHash))
				// the key went away in between (released or expired):
				// claim again
				.switchIfEmpty(Mono.defer(
						() -> (attempts > 1) ? claimOrAnswer(id, requestHash, insert, attempts - 1) : inProgress())));
	}

	private Mono<ServerResponse> createClaimed(KeyId id, UUID token, Supplier<Mono<Created>> insert) {
		// a failed or abandoned request gives the key back at once, so it may be retried
		return Mono.usingWhen(Mono.just(token), (claim) -> insert.get().flatMap((created) -> {
			String body = encode(created.view());
			String location = (created.outcome() == RecordOutcome.CREATED) ? created.location() : null;
			return this.keys
				.complete(id, claim, status(created.outcome()).value(), location, body,
						(created.outcome() != null) ? created.outcome().value() : BATCH)
				.switchIfEmpty(Mono.error(IdempotentCreates::lostClaim))
				.thenReturn(new Answer(created.outcome(), location, body));
		}).as(this.transaction::transactional), (claim) -> Mono.empty(), (claim, failure) -> release(id, claim),
				(claim) -> release(id, claim))
			// the transaction has committed
			.flatMap((answer) -> answer(answer.outcome(), answer.location(), answer.body(), false));
	}

	private Mono<Void> release(KeyId id, UUID token) {
		// if the database is what failed, the claim runs out after its lease instead
		return this.keys.release(id, token).onErrorResume((failure) -> Mono.empty());
	}

	private Mono<ServerResponse> answer(StoredKey stored, byte[] requestHash) {
		if (!MessageDigest.isEqual(stored.requestHash(), requestHash)) {
			return Mono.error(new ApiException(ProblemType.IDEMPOTENCY_KEY_REUSED,
					"This Idempotency-Key was used within the last 24 hours with a different request body; "
							+ "use a new key for a new request"));
		}
		if (!stored.completed()) {
			return inProgress();
		}
		RecordOutcome outcome = BATCH.equals(stored.outcome()) ? null : RecordOutcome.of(stored.outcome());
		return answer(outcome, stored.location(), stored.body(), true);
	}

	private static <T> Mono<T> inProgress() {
		return Mono.error(new ApiException(ProblemType.IDEMPOTENCY_IN_PROGRESS,
				"The first request with this Idempotency-Key is still in progress; retry shortly to get its answer",
				List.of(), Map.of(HttpHeaders.RETRY_AFTER, "1")));
	}

	private static ApiException lostClaim() {
		return new ApiException(ProblemType.IDEMPOTENCY_IN_PROGRESS,
				"Another request took over this Idempotency-Key; retry to get its answer", List.of(),
				Map.of(HttpHeaders.RETRY_AFTER, "1"));
	}

	/** The answer's status: {@code outcome}'s, or {@code 200} for a batch (null). */
	private static HttpStatus status(RecordOutcome outcome) {
		return (outcome != null) ? outcome.status() : HttpStatus.OK;
	}

	/** The answer of a record's write, or of a batch when {@code outcome} is null. */
	private Mono<ServerResponse> answer(RecordOutcome outcome, String location, String body, boolean replayed) {
		ServerResponse.BodyBuilder response = ServerResponse.status(status(outcome))
			.contentType(MediaType.APPLICATION_JSON);
		if (outcome != null) {
			response.header(RecordOutcome.HEADER, outcome.value());
		}
		if (outcome == RecordOutcome.CREATED) {
			// the record's path, made of the route and the record's id: set as it is, as
			// location(URI) would set it, without parsing it into a URI first
			response.header(HttpHeaders.LOCATION, location);
		}
		if (replayed) {
			response.header(REPLAYED, "true");
		}
		return response.body(BytesBody.of(body.getBytes(StandardCharsets.UTF_8)));
	}

	private String encode(Object view) {
		return (view instanceof JsonWritable writable) ? writable.toJson() : this.mapper.writeValueAsString(view);
	}

	private record Answer(RecordOutcome outcome, String location, String body) {
	}

}
