package com.healthpartner.api.records;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.jayway.jsonpath.JsonPath;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;

import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.metric.Metrics;
import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.Kinds;
import com.healthpartner.api.support.LockWaits;
import com.healthpartner.api.support.PartnerTest;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.RateLimitHeaders;
import com.healthpartner.api.support.Signatures;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /api/v1/health/<kind>/batch}: every item as the single POST would treat it,
 * answered in its place; the bounds of the whole request; one request against the plan;
 * idempotent replays; what is stored, in the feed and in the audit trail.
 */
class RecordBatchesTest extends PartnerTest {

	private static final String KINDS = "com.healthpartner.api.support.Kinds#all";

	@Autowired
	private ConnectionFactory connections;

	@ParameterizedTest
	@MethodSource(KINDS)
	@SuppressWarnings("unchecked")
	void eachItemIsStoredAsItsSinglePostWouldStoreItAndAnsweredInItsPlace(RecordKind kind) {
		String plain = Kinds.body(kind, this.user);
		String first = withClient(kind, "c-1", 1);
		String second = withClient(kind, "c-1", 2);
		String again = withClient(kind, "c-1", 1);
		String unknownField = plain.replaceFirst("\\{", "{\"colour\": \"red\", ");
		EntityExchangeResult<byte[]> answer = batch(kind,
				"[" + String.join(",", plain, "5", first, unknownField, second, again) + "]")
			.expectStatus()
			.isOk()
			.expectHeader()
			.doesNotExist("Record-Outcome")
			.expectBody()
			.returnResult();
		String body = new String(answer.getResponseBodyContent());

		assertThat((List<Integer>) JsonPath.read(body, "$.results[*].index")).containsExactly(0, 1, 2, 3, 4, 5);
		assertThat((List<Integer>) JsonPath.read(body, "$.results[*].status")).containsExactly(201, 400, 201, 400, 200,
				200);
		assertThat((List<String>) JsonPath.read(body, "$.results[*].outcome")).containsExactly("created", "created",
				"updated", "unchanged");
		assertThat((String) JsonPath.read(body, "$.results[1].code")).isEqualTo("validation_failed");
		assertThat((String) JsonPath.read(body, "$.results[1].errors[0].field")).isEqualTo("body");
		assertThat((List<String>) JsonPath.read(body, "$.results[3].errors[*].field")).containsExactly("colour");
		assertThat((Map<String, Integer>) JsonPath.read(body, "$.summary"))
			.isEqualTo(Map.of("created", 2, "updated", 1, "unchanged", 1, "failed", 2));
		// the update answers the record of the first item, at version 2; unchanged
		// answers it as stored
		String id = JsonPath.read(body, "$.results[2].record.id");
		assertThat((String) JsonPath.read(body, "$.results[4].record.id")).isEqualTo(id);
		assertThat((Integer) JsonPath.read(body, "$.results[4].record.client_record_version")).isEqualTo(2);
		Object unchanged = JsonPath.read(body, "$.results[5].record");
		assertThat(unchanged).isEqualTo(JsonPath.read(body, "$.results[4].record"));

		// stored as the answer says, and read back the same
		List<Map<String, Object>> listed = this.api.allPages(this.partner.apiKey(), kind.path() + "?user_id={u}",
				this.user);
		assertThat(listed).extracting((record) -> record.get("id"))
			.containsExactlyInAnyOrder(JsonPath.read(body, "$.results[0].record.id"), id);
		String read = new String(this.api.get(this.partner.apiKey(), kind.path() + "/{id}", id)
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBodyContent());
		assertThat(JsonPath.parse(read).json().toString())
			.isEqualTo(JsonPath.parse(body).read("$.results[4].record").toString());

		// each write has its change, in the items' order; the audit trail counts the
		// three
		// writes of the user under the batch's request id
		assertThat(feedKinds()).containsExactly("created", "created", "updated");
		String requestId = answer.getResponseHeaders().getFirst("X-Request-Id");
		assertThat(this.db
			.sql("select sum(record_count) from audit_events where partner_id = cast(:p as uuid) and user_id = :u "
					+ "and action = 'write' and resource = :r and request_id = :id")
			.bind("p", this.partner.partnerId())
			.bind("u", this.user)
			.bind("r", kind.resource())
			.bind("id", requestId)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block()).isEqualTo(3L);
	}

	@Test
	@SuppressWarnings("unchecked")
	void fieldErrorsAreNamedWithinTheItemAndAClientRecordIdOfAnotherUserIs409InItsPlace() {
		this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"someone-else\", \"client_record_id\": \"taken\", \"metrics\": {\"weight\": 70}}");
		String body = batchBody(Metrics.KIND,
				"[{\"user_id\": \"" + this.user
						+ "\", \"client_record_id\": \"taken\", \"metrics\": {\"weight\": 71}}, {\"user_id\": \""
						+ this.user + "\", \"metrics\": {\"weight\": 7000}}, {\"user_id\": \"" + this.user
						+ "\", \"metrics\": {\"weight\": 72}}]");
		assertThat((List<Integer>) JsonPath.read(body, "$.results[*].status")).containsExactly(409, 400, 201);
		assertThat((String) JsonPath.read(body, "$.results[0].code")).isEqualTo("conflict");
		assertThat((List<String>) JsonPath.read(body, "$.results[0].errors[*].field"))
			.containsExactly("client_record_id");
		assertThat((List<String>) JsonPath.read(body, "$.results[1].errors[*].field"))
			.containsExactly("metrics.weight");
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user))
			.singleElement()
			.satisfies((record) -> assertThat(record.get("metrics")).isEqualTo(Map.of("weight", 72)));
	}

	@ParameterizedTest
	@ValueSource(strings = { "{}", "{\"records\": []}", "{\"records\": {}}", "{\"records\": null}",
			"{\"records\": \"many\"}" })
	void recordsMissingEmptyOrNotAnArrayIs400NamingRecords(String body) {
		Expect
			.problem(this.api.post(HealthApi.METRICS + "/batch", this.partner.apiKey(), body), HttpStatus.BAD_REQUEST,
					"validation_failed")
			.jsonPath("$.errors[*].field")
			.isEqualTo(List.of("records"));
	}

	@Test
	void moreRecordsThanTheLimitOrAnUnknownFieldIs400AndStoresNothing() {
		String item = Kinds.body(Metrics.KIND, this.user);
		String tooMany = "{\"records\": [" + String.join(",", java.util.Collections.nCopies(1001, item)) + "]}";
		Expect
			.problem(this.api.post(HealthApi.METRICS + "/batch", this.partner.apiKey(), tooMany),
					HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[0].field")
			.isEqualTo("records")
			.jsonPath("$.errors[0].message")
			.value((message) -> assertThat((String) message).contains("1 to 1000").contains("has 1001"));
		Expect.problem(
				this.api.post(HealthApi.METRICS + "/batch", this.partner.apiKey(),
						"{\"records\": [" + item + "], \"user_id\": \"x\"}"),
				HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[*].field")
			.isEqualTo(List.of("user_id"));
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user)).isEmpty();
		assertThat(feedKinds()).isEmpty();
	}

	@Test
	void aThousandRecordsAboveTheSinglePostsBodyLimitAreTakenAndAbove2MiBIs413() {
		String items = IntStream.range(0, 1000)
			.mapToObj((i) -> "{\"user_id\": \"" + this.user + "\", \"client_record_id\": \"scale-" + i
					+ "\", \"metrics\": {\"weight\": " + (60 + i % 40) + ", \"resting_heart_rate\": 60}}")
			.collect(Collectors.joining(",", "[", "]"));
		assertThat(items.length()).isGreaterThan(64 * 1024);
		String body = batchBody(Metrics.KIND, items);
		assertThat((Integer) JsonPath.read(body, "$.summary.created")).isEqualTo(1000);
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user))
			.hasSize(1000);

		String tooLarge = "{\"records\": [" + " ".repeat(2 * 1024 * 1024) + item(this.user) + "]}";
		Expect.problem(this.api.post(HealthApi.METRICS + "/batch", this.partner.apiKey(), tooLarge),
				HttpStatus.CONTENT_TOO_LARGE, "payload_too_large");
		// the single POST keeps its own limit
		Expect.problem(
				this.api.post(HealthApi.METRICS, this.partner.apiKey(), "{\"user_id\": \"" + this.user
						+ "\", \"metrics\": {\"weight\": 70}" + " ".repeat(70 * 1024) + "}"),
				HttpStatus.CONTENT_TOO_LARGE, "payload_too_large");
	}

	@Test
	void aBatchIsOneRequestAgainstThePlanAndSignedLikeAnyOther() {
		Credentials partner = this.partners.onboard("default");
		String body = "{\"records\": ["
				+ IntStream.range(0, 1000).mapToObj((i) -> item(this.user)).collect(Collectors.joining(",")) + "]}";
		assertThat(body.length()).isGreaterThan(64 * 1024);
		long t = this.clock.instant().getEpochSecond();
		EntityExchangeResult<byte[]> answer = this.api
			.post(HealthApi.METRICS + "/batch", partner.apiKey(), body, Signatures.HEADER,
					Signatures.sign(partner.apiSecret(), t, "POST", HealthApi.METRICS + "/batch", body))
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult();
		assertThat((Integer) JsonPath.read(new String(answer.getResponseBodyContent()), "$.summary.created"))
			.isEqualTo(1000);
		assertThat(RateLimitHeaders.of(answer.getResponseHeaders(), this.clock.instant()).remaining()).isEqualTo(59);
		// a signature of another body is refused before anything is stored
		Expect.problem(
				this.api.post(HealthApi.METRICS + "/batch", partner.apiKey(), body, Signatures.HEADER,
						Signatures.sign(partner.apiSecret(), t, "POST", HealthApi.METRICS + "/batch", body + " ")),
				HttpStatus.UNAUTHORIZED, "invalid_signature");
		assertThat(this.api.allPages(partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user)).hasSize(1000);
	}

	@Test
	void aReplayWithTheSameKeyAnswersTheFirstAnswerAndStoresNothingMore() {
		String items = "[" + item(this.user) + "," + item(this.user) + "]";
		String body = "{\"records\": " + items + "}";
		EntityExchangeResult<byte[]> first = this.api
			.post(HealthApi.METRICS + "/batch", this.partner.apiKey(), body, "Idempotency-Key", "sync-1")
			.expectStatus()
			.isOk()
			.expectHeader()
			.doesNotExist("Idempotent-Replayed")
			.expectBody()
			.returnResult();
		EntityExchangeResult<byte[]> replay = this.api
			.post(HealthApi.METRICS + "/batch", this.partner.apiKey(), body, "Idempotency-Key", "sync-1")
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("Idempotent-Replayed", "true")
			.expectHeader()
			.doesNotExist("Record-Outcome")
			.expectBody()
			.returnResult();
		assertThat(replay.getResponseBodyContent()).isEqualTo(first.getResponseBodyContent());
		// the key is the batch's: the single POST does not share it
		this.api.post(HealthApi.METRICS, this.partner.apiKey(), item(this.user), "Idempotency-Key", "sync-1")
			.expectStatus()
			.isCreated();
		Expect.problem(
				this.api.post(HealthApi.METRICS + "/batch", this.partner.apiKey(),
						"{\"records\": [" + item(this.user) + "]}", "Idempotency-Key", "sync-1"),
				HttpStatus.UNPROCESSABLE_CONTENT, "idempotency_key_reused");
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user)).hasSize(3);
	}

	@Test
	void aClientRecordIdThatAnErasureHidesIsFreeForAnItemAsForTheSinglePost() {
		Map<String, Object> erased = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"client_record_id\": \"m1\", \"metrics\": {\"weight\": 70}}");
		this.api.erase(this.partner.apiKey(), this.user);
		String body = batchBody(Metrics.KIND,
				"[{\"user_id\": \"" + this.user + "\", \"client_record_id\": \"m1\", \"metrics\": {\"weight\": 72}}]");
		assertThat((String) JsonPath.read(body, "$.results[0].outcome")).isEqualTo("created");
		String id = JsonPath.read(body, "$.results[0].record.id");
		assertThat(id).isNotEqualTo(erased.get("id"));
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user))
			.extracting((record) -> record.get("id"))
			.containsExactly(id);
	}

	@Test
	void aBatchThatFailsPartWayStoresNothing() {
		String stored = "{\"user_id\": \"" + this.user
				+ "\", \"client_record_id\": \"held\", \"client_record_version\": 1, \"metrics\": {\"weight\": 70}}";
		this.api.create(HealthApi.METRICS, this.partner.apiKey(), stored);
		// another transaction holds the stored record, so the batch's second statement
		// waits for it past the request's deadline, after the first statement was written
		Connection held = holding("held");
		try {
			// a first run writes "first", the second updates it and waits for "held"
			String first = stored.replace("held", "first");
			String items = "[" + first + ", "
					+ first.replace("\"client_record_version\": 1", "\"client_record_version\": 2") + ", "
					+ stored.replace("\"client_record_version\": 1", "\"client_record_version\": 2") + "]";
			Expect.problem(batch(Metrics.KIND, items), HttpStatus.SERVICE_UNAVAILABLE, "service_unavailable");
		}
		finally {
			Mono.from(held.rollbackTransaction()).then(Mono.from(held.close())).block(Duration.ofSeconds(10));
		}
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user))
			.singleElement()
			.satisfies((record) -> assertThat(record.get("client_record_version")).isEqualTo(1));
		assertThat(feedKinds()).containsExactly("created");
	}

	@Test
	void aBatchThatTheDatabaseUndoesInADeadlockIs503WithRetryAfterAndStoresNothing() throws Exception {
		String stored = "{\"user_id\": \"" + this.user
				+ "\", \"client_record_id\": \"b\", \"client_record_version\": 1, \"metrics\": {\"weight\": 70}}";
		this.api.create(HealthApi.METRICS, this.partner.apiKey(), stored);
		UUID partnerId = UUID.fromString(this.partner.partnerId());
		// another transaction holds "b"; the batch inserts "a" and waits for "b"; the
		// other
		// then inserts "a" too and waits for the batch: a deadlock, which the database
		// ends
		// by undoing the transaction that waited first, the batch's
		Connection other = holding("b");
		try {
			String items = "[" + stored.replace("\"b\"", "\"a\"") + ", "
					+ stored.replace("\"client_record_version\": 1", "\"client_record_version\": 2") + "]";
			CompletableFuture<WebTestClient.ResponseSpec> answer = CompletableFuture
				.supplyAsync(() -> batch(Metrics.KIND, items));
			assertThat(Eventually.eventually(Duration.ofSeconds(10), () -> LockWaits.count(this.db) == 1)).isTrue();
			CompletableFuture<Long> otherInsert = Flux
				.from(other.createStatement("insert into metric_records (id, partner_id, user_id, client_record_id, "
						+ "client_record_version, metrics, recorded_at, created_at, view) values ($1, $2, 'other', 'a', "
						+ "1, '{}', now(), now(), '{}')")
					.bind("$1", UUID.randomUUID())
					.bind("$2", partnerId)
					.execute())
				.flatMap((result) -> result.getRowsUpdated())
				.last()
				.toFuture();
			WebTestClient.ResponseSpec undone = answer.get(10, TimeUnit.SECONDS);
			undone.expectHeader().valueEquals("Retry-After", "1");
			Expect.problem(undone, HttpStatus.SERVICE_UNAVAILABLE, "service_unavailable")
				.jsonPath("$.detail")
				.value((String detail) -> assertThat(detail).contains("concurrent"));
			// the batch's "a" is gone, so the other's insert goes on
			assertThat(otherInsert.get(10, TimeUnit.SECONDS)).isEqualTo(1L);
		}
		finally {
			Mono.from(other.rollbackTransaction()).then(Mono.from(other.close())).block(Duration.ofSeconds(10));
		}
		assertThat(this.api.allPages(this.partner.apiKey(), HealthApi.METRICS + "?user_id={u}", this.user))
			.singleElement()
			.satisfies((record) -> {
				assertThat(record.get("client_record_id")).isEqualTo("b");
				assertThat(record.get("client_record_version")).isEqualTo(1);
			});
		assertThat(feedKinds()).containsExactly("created");
	}

	/**
	 * A connection whose open transaction holds the partner's stored metrics record of
	 * {@code clientRecordId} (selected for update).
	 */
	private Connection holding(String clientRecordId) {
		Connection connection = Mono.from(this.connections.create()).block(Duration.ofSeconds(10));
		assertThat(connection).isNotNull();
		Mono.from(connection.beginTransaction()).block(Duration.ofSeconds(10));
		Flux.from(connection
			.createStatement("select 1 from metric_records where partner_id = $1 and client_record_id = $2 for update")
			.bind("$1", UUID.fromString(this.partner.partnerId()))
			.bind("$2", clientRecordId)
			.execute()).flatMap((result) -> result.map((row, meta) -> 1)).blockLast(Duration.ofSeconds(10));
		return connection;
	}

	private WebTestClient.ResponseSpec batch(RecordKind kind, String items) {
		return this.api.post(kind.path() + "/batch", this.partner.apiKey(), "{\"records\": " + items + "}");
	}

	/**
	 * Posts a batch of {@code items}, expects {@code 200} and returns the answer's body.
	 */
	private String batchBody(RecordKind kind, String items) {
		return new String(
				batch(kind, items).expectStatus().isOk().expectBody().returnResult().getResponseBodyContent());
	}

	private static String item(String user) {
		return "{\"user_id\": \"" + user + "\", \"metrics\": {\"weight\": 70}}";
	}

	private String withClient(RecordKind kind, String clientId, int version) {
		return Kinds.body(kind, this.user)
			.replaceFirst("\\{",
					"{\"client_record_id\": \"" + clientId + "\", \"client_record_version\": " + version + ", ");
	}

	/** The kinds of the stored changes of the test's user, in the feed's order. */
	private List<String> feedKinds() {
		return this.db
			.sql("select kind from changes where partner_id = cast(:p as uuid) and user_id = :u order by txid, seq")
			.bind("p", this.partner.partnerId())
			.bind("u", this.user)
			.map((row) -> row.get(0, String.class))
			.all()
			.collectList()
			.block();
	}

}
