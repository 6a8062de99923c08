package com.healthpartner.api.imports;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.PartnerTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Signatures;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@code POST /api/v1/health/imports}: the body stored, {@code 202} with the import,
 * which its partner reads and no other, applied line by line with its refused lines and
 * its audit events; the refusals before anything is stored; the limit of active imports.
 */
class ImportsTest extends PartnerTest {

	private static final String PATH = "/api/v1/health/imports";

	@Autowired
	private ImportWorker worker;

	@Test
	@SuppressWarnings("unchecked")
	void anImportIsStoredThenAppliedLineByLineAsTheSinglePostWouldApplyEachLine() {
		String body = "{\"user_id\": \"" + this.user
				+ "\", \"client_record_id\": \"c1\", \"metrics\": {\"weight\": 70}}\n\n" + "{\"user_id\": \""
				+ this.user + "\", \"metrics\": {\"weight\": 7000}}\r\n" + "not json\n" + "{\"user_id\": \"" + this.user
				+ "\", \"client_record_id\": \"c1\", \"client_record_version\": 2, " + "\"metrics\": {\"weight\": 71}}";
		EntityExchangeResult<byte[]> answer = post(this.partner, "metrics", body).expectStatus()
			.isAccepted()
			.expectBody()
			.returnResult();
		String view = new String(answer.getResponseBodyContent());
		String id = JsonPath.read(view, "$.import_id");
		assertThat(answer.getResponseHeaders().getLocation()).hasToString(PATH + "/" + id);
		assertThat((Map<String, Object>) JsonPath.read(view, "$")).containsEntry("kind", "metrics")
			.containsEntry("lines", 4);

		Map<String, Object> done = Eventually.eventually(Duration.ofSeconds(20),
				() -> (Map<String, Object>) JsonPath.read(get(this.partner, id), "$"),
				(now) -> "completed".equals(now.get("status")));
		assertThat(done).containsEntry("processed", 4)
			.containsEntry("created", 1)
			.containsEntry("updated", 1)
			.containsEntry("unchanged", 0)
			.containsEntry("failed", 2);
		assertThat(done.get("completed_at")).isNotNull();
		assertThat(this.api.allPages(this.partner.apiKey(), "/api/v1/health/metrics?user_id={u}", this.user))
			.singleElement()
			.satisfies((record) -> assertThat(record).containsEntry("client_record_version", 2));
		assertThat(this.db
			.sql("select string_agg(item, '|' order by line) from import_errors "
					+ "where import_id = cast(:id as uuid)")
			.bind("id", id)
			.map((row) -> row.get(0, String.class))
			.one()
			.block())
			.startsWith(
					"{\"line\":3,\"status\":400,\"code\":\"validation_failed\",\"errors\":[{\"field\":\"metrics.weight\"")
			.contains("|{\"line\":4,\"status\":400,\"code\":\"malformed_json\"");
		assertThat(this.client.get()
			.uri(PATH + "/{id}/errors", id)
			.header("x-api-key", this.partner.apiKey())
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType("application/x-ndjson")
			.expectBody(String.class)
			.returnResult()
			.getResponseBody()).startsWith("{\"line\":3,").contains("\n{\"line\":4,").endsWith("}\n");
		assertThat(this.db.sql("select count(*) from import_lines where import_id = cast(:id as uuid)")
			.bind("id", id)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block()).isZero();
		// the audit trail: the import created and completed with its counts, and the
		// records' own write events, all under the POST's request id
		String requestId = answer.getResponseHeaders().getFirst("X-Request-Id");
		List<Map<String, Object>> events = JsonPath.read(Partners
			.admin(this.client.get().uri("/admin/v1/audit?partner_id={p}&limit=100", this.partner.partnerId()))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody(), "$.data");
		assertThat(events).filteredOn((event) -> "import".equals(event.get("action")))
			.extracting((event) -> event.get("record_count"), (event) -> event.get("user_id"),
					(event) -> event.get("request_id"), (event) -> event.get("import"))
			.containsExactly(
					tuple(0, null, requestId,
							Map.of("import_id", id, "status", "processing", "lines", 4, "processed", 0, "created", 0,
									"updated", 0, "unchanged", 0, "failed", 0)),
					tuple(2, null, requestId, Map.of("import_id", id, "status", "completed", "lines", 4, "processed", 4,
							"created", 1, "updated", 1, "unchanged", 0, "failed", 2)));
		assertThat(events).filteredOn((event) -> "write".equals(event.get("action")))
			.extracting((event) -> event.get("user_id"), (event) -> event.get("request_id"))
			.isNotEmpty()
			.containsOnly(tuple(this.user, requestId));
		Credentials other = this.partners.onboard("loadtest");
		Expect.problem(this.client.get().uri(PATH + "/{id}", id).header("x-api-key", other.apiKey()).exchange(),
				HttpStatus.NOT_FOUND, "not_found");
	}

	private String get(Credentials partner, String id) {
		return this.client.get()
			.uri(PATH + "/{id}", id)
			.header("x-api-key", partner.apiKey())
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
	}

	@Test
	void badRequestsAreRefusedBeforeAnythingIsStoredAndAThirdActiveImportIs429() {
		Expect.problem(post(this.partner, null, "{}"), HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[0].field")
			.isEqualTo("kind");
		Expect.problem(post(this.partner, "steps", "{}"), HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[0].message")
			.isEqualTo("must be metrics or assessments");
		Expect.problem(this.client.post()
			.uri(PATH + "?kind=metrics")
			.header("x-api-key", this.partner.apiKey())
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{}")
			.exchange(), HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type");
		assertThat(count()).isZero();
		// two imports held by another instance for a long while: still processing
		for (int i = 0; i < 2; i++) {
			this.db
				.sql("""
						insert into imports (id, partner_id, key_id, request_id, resource, status, created_at,
						                     claimed_by, claimed_until)
						values (gen_random_uuid(), cast(:p as uuid), gen_random_uuid(), 'held', 'metrics', 'processing', now(),
						        gen_random_uuid(), now() + interval '1 hour')
						""")
				.bind("p", this.partner.partnerId())
				.then()
				.block();
		}
		Expect.problem(post(this.partner, "metrics", "{}\n"), HttpStatus.TOO_MANY_REQUESTS, "too_many_imports")
			.jsonPath("$.detail")
			.value((String detail) -> assertThat(detail).contains("2 imports"));
		assertThat(count()).isEqualTo(2);
	}

	@Test
	void aReplayAnswersTheSameImportAndABodyThatIsNotUtf8StoresNothing() {
		String body = "{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}\n";
		String first = post(this.partner, "metrics", body, "history-1").expectStatus()
			.isAccepted()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		post(this.partner, "metrics", body, "history-1").expectStatus()
			.isAccepted()
			.expectHeader()
			.valueEquals("Idempotent-Replayed", "true")
			.expectBody()
			.jsonPath("$.import_id")
			.isEqualTo(JsonPath.read(first, "$.import_id"));
		byte[] notUtf8 = { '{', '"', 'a', '"', ':', '"', (byte) 0xC3, '"', '}', '\n' };
		Expect.problem(this.client.post()
			.uri(PATH + "?kind=metrics")
			.header("x-api-key", this.partner.apiKey())
			.contentType(MediaType.APPLICATION_NDJSON)
			.bodyValue(notUtf8)
			.exchange(), HttpStatus.BAD_REQUEST, "malformed_json");
		assertThat(this.db
			.sql("select count(*) from import_lines l join imports i on i.id = l.import_id "
					+ "where i.partner_id = cast(:p as uuid) and i.status = 'failed'")
			.bind("p", this.partner.partnerId())
			.map((row) -> row.get(0, Long.class))
			.one()
			.block()).isZero();
	}

	@Test
	@SuppressWarnings("unchecked")
	void theListShowsThePartnersImportsNewestFirstPageByPage() {
		String first = JsonPath.read(new String(post(this.partner, "metrics", "{}\n").expectStatus()
			.isAccepted()
			.expectBody()
			.returnResult()
			.getResponseBodyContent()), "$.import_id");
		this.clock.advance(Duration.ofSeconds(1));
		String second = JsonPath.read(new String(post(this.partner, "assessments", "{}\n").expectStatus()
			.isAccepted()
			.expectBody()
			.returnResult()
			.getResponseBodyContent()), "$.import_id");
		Map<String, Object> page = this.api.page(this.partner.apiKey(), PATH + "?limit=1");
		assertThat((java.util.List<Map<String, Object>>) page.get("data")).extracting((row) -> row.get("import_id"))
			.containsExactly(second);
		Map<String, Object> next = this.api.page(this.partner.apiKey(), PATH + "?limit=1&cursor={c}",
				page.get("next_cursor"));
		assertThat((java.util.List<Map<String, Object>>) next.get("data")).extracting((row) -> row.get("import_id"))
			.containsExactly(first);
		Credentials other = this.partners.onboard("loadtest");
		assertThat((java.util.List<Object>) this.api.page(other.apiKey(), PATH).get("data")).isEmpty();
		Credentials metricsOnly = this.partners.issueKey(this.partner.partnerId(),
				Map.of("scopes", java.util.List.of("metrics:read")));
		assertThat((java.util.List<Map<String, Object>>) this.api.page(metricsOnly.apiKey(), PATH).get("data"))
			.extracting((row) -> row.get("import_id"))
			.containsExactly(first);
	}

	@Test
	void versionsOfOneRecordInSeveralChunksApplyInFileOrderThoughChunksRunSideBySide() {
		// lines 1-1000 create c-1 to c-1000; 1001-2000 make them version 2; 2001-2500
		// make
		// the first 500 version 3: chunks 2 and 3 wait for the chunks before them
		StringBuilder body = new StringBuilder();
		for (int n = 1; n <= 2500; n++) {
			int record = (n - 1) % 1000 + 1;
			int version = (n - 1) / 1000 + 1;
			body.append("{\"user_id\": \"")
				.append(this.user)
				.append("\", \"client_record_id\": \"c-")
				.append(record)
				.append("\", \"client_record_version\": ")
				.append(version)
				.append(", \"metrics\": {\"weight\": ")
				.append(60 + version)
				.append("}}\n");
		}
		String id = JsonPath.read(new String(post(this.partner, "metrics", body.toString()).expectStatus()
			.isAccepted()
			.expectBody()
			.returnResult()
			.getResponseBodyContent()), "$.import_id");
		@SuppressWarnings("unchecked")
		Map<String, Object> done = Eventually.eventually(Duration.ofSeconds(30),
				() -> (Map<String, Object>) JsonPath.read(get(this.partner, id), "$"),
				(now) -> "completed".equals(now.get("status")));
		assertThat(done).containsEntry("created", 1000)
			.containsEntry("updated", 1500)
			.containsEntry("unchanged", 0)
			.containsEntry("failed", 0);
		assertThat(this.db
			.sql("select string_agg(client_record_version || ':' || count, ',' order by client_record_version) "
					+ "from (select client_record_version, count(*) from metric_records "
					+ "where partner_id = cast(:p as uuid) group by client_record_version) v")
			.bind("p", this.partner.partnerId())
			.map((row) -> row.get(0, String.class))
			.one()
			.block()).isEqualTo("2:500,3:500");
		// each record's changes in the feed in version order
		assertThat(this.db.sql("""
				select count(*) from (
				    select client_record_id,
				           array_agg(cast(cast('{' || item as jsonb) -> 'record' ->> 'client_record_version' as bigint)
				                     order by txid, seq) as versions
				    from changes where partner_id = cast(:p as uuid) group by client_record_id) c
				where versions <> array(select generate_series(1, cardinality(versions)))::bigint[]
				""").bind("p", this.partner.partnerId()).map((row) -> row.get(0, Long.class)).one().block())
			.as("records whose changes are out of version order")
			.isZero();
	}

	@Test
	@SuppressWarnings("unchecked")
	void aSlowUploadDoesNotHoldBackAnotherPartnersChangeFeed() throws Exception {
		Credentials other = this.partners.onboard("loadtest");
		String line = "{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}\n";
		// enough lines that PostgreSQL's COPY inserts some at once (it buffers 1,000
		// rows):
		// its transaction then has an id, which the feed's horizon waits for
		String first = line.repeat(3000);
		try (Socket socket = new Socket("localhost", this.port)) {
			OutputStream out = socket.getOutputStream();
			out.write((uploadHead(first.length() + 2 * line.length()) + first).getBytes(StandardCharsets.UTF_8));
			out.flush();
			// the second line comes a segment's time after the first
			Thread.sleep(1500);
			out.write(line.getBytes(StandardCharsets.UTF_8));
			out.flush();
			Thread.sleep(300);
			// while the upload waits for its last line, another partner writes and reads
			// its
			// feed
			this.client.post()
				.uri("/api/v1/health/metrics")
				.header("x-api-key", other.apiKey())
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue("{\"user_id\": \"feed-reader\", \"metrics\": {\"weight\": 70}}")
				.exchange()
				.expectStatus()
				.isCreated();
			List<Object> changes = Eventually.eventually(Duration.ofSeconds(3),
					() -> (List<Object>) this.api.page(other.apiKey(), "/api/v1/health/changes?limit=10").get("data"),
					(data) -> !data.isEmpty());
			assertThat(changes).as("the other partner's change, listed while the upload is open").hasSize(1);
			out.write(line.getBytes(StandardCharsets.UTF_8));
			out.flush();
			socket.setSoTimeout(10_000);
			byte[] answer = socket.getInputStream().readNBytes(12);
			assertThat(new String(answer, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 202");
		}
	}

	@Test
	void anUploadWhoseImportIsGoneWhenItEndsIsAnErrorNotAnEmptyAnswer() throws Exception {
		String line = "{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}\n";
		try (Socket socket = new Socket("localhost", this.port)) {
			OutputStream out = socket.getOutputStream();
			out.write((uploadHead(2 * line.length()) + line).getBytes(StandardCharsets.UTF_8));
			out.flush();
			// the import's row, receiving, taken away under the upload
			assertThat(Eventually.eventually(Duration.ofSeconds(5),
					() -> this.db.sql("delete from imports where partner_id = :partnerId and status = 'receiving'")
						.bind("partnerId", UUID.fromString(this.partner.partnerId()))
						.fetch()
						.rowsUpdated()
						.block(),
					(deleted) -> deleted == 1))
				.isOne();
			out.write(line.getBytes(StandardCharsets.UTF_8));
			out.flush();
			socket.setSoTimeout(10_000);
			String answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
			assertThat(answer).isEqualTo("HTTP/1.1 500");
		}
		// nothing stored
		this.db.sql("select count(*) from imports where partner_id = :partnerId")
			.bind("partnerId", UUID.fromString(this.partner.partnerId()))
			.map((row) -> row.get(0, Long.class))
			.one()
			.as(StepVerifier::create)
			.expectNext(0L)
			.verifyComplete();
	}

	/**
	 * The head of a raw metrics import upload of the partner, of {@code length} bytes.
	 */
	private String uploadHead(int length) {
		return "POST " + PATH + "?kind=metrics HTTP/1.1\r\nHost: localhost\r\nx-api-key: " + this.partner.apiKey()
				+ "\r\nContent-Type: application/x-ndjson\r\nContent-Length: " + length + "\r\n\r\n";
	}

	@Test
	void aSignedImportOfAnySizeIsCheckedAsItStreamsAndABadSignatureStoresNothing() {
		StringBuilder lines = new StringBuilder();
		for (int i = 0; i < 2000; i++) {
			lines.append("{\"user_id\": \"").append(this.user).append("\", \"metrics\": {\"weight\": 70}}\n");
		}
		String body = lines.toString();
		assertThat(body.length()).as("more than the 64 KiB a signed body is read whole within").isGreaterThan(65536);
		long now = this.clock.instant().getEpochSecond();
		String signature = Signatures.sign(this.partner.apiSecret(), now, "POST", PATH + "?kind=metrics", body);
		signed(body, signature).header("Idempotency-Key", "signed-1")
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectBody()
			.jsonPath("$.lines")
			.isEqualTo(2000);
		// a replay of its key is verified too: a signature of another body is refused
		String wrong = Signatures.sign(this.partner.apiSecret(), now + 1, "POST", PATH + "?kind=metrics", "{}\n");
		Expect.problem(signed(body, wrong).header("Idempotency-Key", "signed-1").exchange(), HttpStatus.UNAUTHORIZED,
				"invalid_signature");
		// the same signature again: a replayed write
		Expect.problem(signed(body, signature).exchange(), HttpStatus.UNAUTHORIZED, "invalid_signature");
		// a signature of another body: refused at the end of the body, nothing kept
		String other = Signatures.sign(this.partner.apiSecret(), now, "POST", PATH + "?kind=metrics", body + "\n");
		Expect.problem(signed(body, other).exchange(), HttpStatus.UNAUTHORIZED, "invalid_signature")
			.jsonPath("$.detail")
			.value((String detail) -> assertThat(detail).contains("does not match"));
		assertThat(count()).isOne();
		assertThat(this.db
			.sql("select count(*) from import_lines l join imports i on i.id = l.import_id "
					+ "where i.partner_id = cast(:p as uuid) and i.status <> 'processing'")
			.bind("p", this.partner.partnerId())
			.map((row) -> row.get(0, Long.class))
			.one()
			.block()).isZero();
	}

	private WebTestClient.RequestHeadersSpec<?> signed(String body, String signature) {
		return this.client.post()
			.uri(PATH + "?kind=metrics")
			.header("x-api-key", this.partner.apiKey())
			.header(Signatures.HEADER, signature)
			.contentType(MediaType.APPLICATION_NDJSON)
			.bodyValue(body);
	}

	@Test
	@SuppressWarnings("unchecked")
	void aChunkThatKeepsFailingEndsTheImportFailedAndAnUploadWhoseInstanceDiedIsDropped() {
		// the database refuses this user's rows (a trigger), so every attempt at the
		// chunk
		// fails
		String poisoned = newUserId();
		this.db.sql("""
				create function refuse_poisoned() returns trigger language plpgsql as $$
				begin
				    if new.user_id = '%s' then raise exception 'refused by the test'; end if;
				    return new;
				end $$
				""".formatted(poisoned)).then().block();
		this.db
			.sql("create trigger refuse_poisoned before insert on metric_records for each row "
					+ "execute function refuse_poisoned()")
			.then()
			.block();
		try {
			String id = JsonPath.read(new String(post(this.partner, "metrics",
					"{\"user_id\": \"" + poisoned + "\", \"metrics\": {\"weight\": 70}}\n")
				.expectStatus()
				.isAccepted()
				.expectBody()
				.returnResult()
				.getResponseBodyContent()), "$.import_id");
			ImportWorker worker = this.worker;
			Map<String, Object> ended = Eventually.eventually(Duration.ofSeconds(30), () -> {
				// the pause before the next attempt, cut short
				this.db
					.sql("update imports set claimed_until = now() - interval '1 second' "
							+ "where id = cast(:id as uuid) and claimed_by is null")
					.bind("id", id)
					.then()
					.block();
				worker.wake();
				return (Map<String, Object>) JsonPath.read(get(this.partner, id), "$");
			}, (now) -> "failed".equals(now.get("status")));
			assertThat(ended).containsEntry("processed", 0).containsEntry("created", 0);
			assertThat((String) ended.get("detail")).contains("stopped: lines 1 to 1 could not be stored");
			assertThat(this.db.sql("select failures from imports where id = cast(:id as uuid)")
				.bind("id", id)
				.map((row) -> row.get(0, Integer.class))
				.one()
				.block()).isEqualTo(5);
		}
		finally {
			this.db.sql("drop trigger refuse_poisoned on metric_records").then().block();
			this.db.sql("drop function refuse_poisoned()").then().block();
		}

		// an upload whose instance died (no connection holds its lock) is dropped, which
		// frees its slot; one just started is left alone
		// (the service's clock is the test's, which other tests move)
		this.db.sql("""
				insert into imports (id, partner_id, key_id, request_id, resource, status, created_at)
				values (gen_random_uuid(), cast(:p as uuid), gen_random_uuid(), 'died', 'metrics', 'receiving',
				        cast(:now as timestamptz) - interval '1 hour'),
				       (gen_random_uuid(), cast(:p as uuid), gen_random_uuid(), 'young', 'metrics', 'receiving',
				        :now)
				""").bind("p", this.partner.partnerId()).bind("now", this.clock.instant()).then().block();
		this.worker.wake();
		assertThat(Eventually.eventually(Duration.ofSeconds(10), () -> this.db
			.sql("select coalesce(string_agg(request_id, ','), '') from imports where partner_id = cast(:p as uuid) "
					+ "and status = 'receiving'")
			.bind("p", this.partner.partnerId())
			.map((row) -> row.get(0, String.class))
			.one()
			.block(), "young"::equals)).isEqualTo("young");
	}

	private long count() {
		return this.db.sql("select count(*) from imports where partner_id = cast(:p as uuid)")
			.bind("p", this.partner.partnerId())
			.map((row) -> row.get(0, Long.class))
			.one()
			.block();
	}

	private WebTestClient.ResponseSpec post(Credentials partner, String kind, String body) {
		return post(partner, kind, body, null);
	}

	/**
	 * POSTs an import of {@code kind} (none: null), with an Idempotency-Key unless null.
	 */
	private WebTestClient.ResponseSpec post(Credentials partner, String kind, String body, String key) {
		WebTestClient.RequestBodySpec request = this.client.post()
			.uri(PATH + ((kind != null) ? "?kind=" + kind : ""))
			.header("x-api-key", partner.apiKey())
			.contentType(MediaType.APPLICATION_NDJSON);
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		return request.bodyValue(body).exchange();
	}

}
