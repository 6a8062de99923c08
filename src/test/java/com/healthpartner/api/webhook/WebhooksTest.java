package com.healthpartner.api.webhook;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import com.jayway.jsonpath.JsonPath;
import com.standardwebhooks.Webhook;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.Feed;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;
import com.healthpartner.api.support.ThreadPriorities;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.WebhookReceiver;
import com.healthpartner.api.support.WebhookReceiver.Received;
import com.healthpartner.api.system.LowPriority;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Section 12 against a receiver on 127.0.0.1: managing endpoints, the URL rules, the
 * signed message of each change as the feed lists it, filters, retries with the same
 * {@code webhook-id}, order per user while another user's messages fail, {@code 410} and
 * re-enabling without gaps, rotation, the test event, redelivery, erasure and the
 * administrator's view.
 */
@SuppressWarnings("unchecked")
class WebhooksTest extends PartnerTest {

	private static final String PATH = "/api/v1/webhooks";

	private final WebhookReceiver receiver = new WebhookReceiver();

	@Autowired
	private DeliveryRetention retention;

	@AfterEach
	void stopReceiver() {
		this.receiver.close();
	}

	@Test
	void aChangeIsSentSignedAsTheFeedListsItWithACursorRightAfterIt() throws Exception {
		EntityExchangeResult<String> answer = create(this.partner,
				"{\"url\": \"" + this.receiver.url() + "\", \"description\": \"sync\"}")
			.expectStatus()
			.isCreated()
			.expectBody(String.class)
			.returnResult();
		String created = answer.getResponseBody();
		String id = JsonPath.read(created, "$.webhook_id");
		assertThat(answer.getResponseHeaders().getFirst(HttpHeaders.LOCATION)).isEqualTo(PATH + "/" + id);
		String secret = JsonPath.read(created, "$.secret");
		assertThat(secret).startsWith("whsec_");
		assertThat((List<String>) JsonPath.read(created, "$.events")).contains("metrics.created", "user.erased");
		assertThat((String) JsonPath.read(created, "$.status")).isEqualTo("enabled");
		String shown = get(this.partner, PATH + "/" + id).expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat(shown).doesNotContain("whsec_").contains("\"description\":\"sync\"");
		assertThat(
				get(this.partner, PATH).expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody())
			.contains(id)
			.doesNotContain("whsec_");

		Map<String, Object> record = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"client_record_id\": \"w1\", \"metrics\": {\"weight\": 70}}");
		Received message = Eventually
			.eventually(Duration.ofSeconds(10), () -> this.receiver.received(), (got) -> !got.isEmpty())
			.get(0);
		assertThat(message.method()).isEqualTo("POST");
		assertThat(message.header("content-type")).startsWith("application/json");
		long timestamp = Long.parseLong(message.header("webhook-timestamp"));
		// the reference library of Standard Webhooks signs the same bytes the same way
		assertThat(message.header("webhook-signature"))
			.isEqualTo(new Webhook(secret).sign(message.header("webhook-id"), timestamp, message.body()));
		assertThat(message.headers()).doesNotContainKeys("x-api-key", "x-request-id", "authorization", "cookie");
		assertThat((String) JsonPath.read(message.body(), "$.type")).isEqualTo("metrics.created");
		assertThat((String) JsonPath.read(message.body(), "$.data.id")).isEqualTo(record.get("id"));
		// data is the change exactly as the feed lists it
		List<Map<String, Object>> feed = new Feed(this.client, this.partner.apiKey()).drain(1000);
		assertThat(feed).hasSize(1);
		Map<String, Object> data = JsonPath.read(message.body(), "$.data");
		assertThat(data).isEqualTo(feed.get(0));
		assertThat((String) JsonPath.read(message.body(), "$.timestamp")).isEqualTo(feed.get(0).get("changed_at"));
		// the cursor is right after the change: the feed has nothing after it yet, and
		// lists the next change after it
		String cursor = JsonPath.read(message.body(), "$.cursor");
		assertThat(
				(List<?>) this.api.page(this.partner.apiKey(), "/api/v1/health/changes?cursor={c}", cursor).get("data"))
			.isEmpty();
		this.api
			.post(HealthApi.METRICS, this.partner.apiKey(),
					"{\"user_id\": \"" + this.user + "\", \"client_record_id\": \"w1\", \"client_record_version\": 2, "
							+ "\"metrics\": {\"weight\": 71}}")
			.expectStatus()
			.isOk();
		List<Map<String, Object>> after = Eventually.eventually(Duration.ofSeconds(10),
				() -> (List<Map<String, Object>>) this.api
					.page(this.partner.apiKey(), "/api/v1/health/changes?cursor={c}", cursor)
					.get("data"),
				(page) -> !page.isEmpty());
		Received second = Eventually
			.eventually(Duration.ofSeconds(10), () -> this.receiver.received(), (got) -> got.size() == 2)
			.get(1);
		assertThat((String) JsonPath.read(second.body(), "$.type")).isEqualTo("metrics.updated");
		assertThat((Map<String, Object>) JsonPath.read(second.body(), "$.data")).isEqualTo(after.get(0));

		String log = deliveries(id, "",
				(page) -> ((List<?>) JsonPath.read(page, "$.data[?(@.status == 'succeeded')]")).size() == 2);
		assertThat((List<String>) JsonPath.read(log, "$.data[*].webhook_message_id"))
			.containsExactly(second.header("webhook-id"), message.header("webhook-id"));
		assertThat((List<Integer>) JsonPath.read(log, "$.data[*].last_status_code")).containsOnly(204);
		assertThat((List<Integer>) JsonPath.read(log, "$.data[*].attempts")).containsOnly(1);
	}

	@Test
	void onlyUrlsTheRulesAllowAreTakenAndAPartnerHasAtMostFive() {
		badUrl("ftp://127.0.0.1/hooks", "must be an https:// or http:// URL");
		badUrl("http://localhost:9/hooks",
				"names a host that resolves to a non-public address (localhost is 127.0.0.1)");
		// (which other ranges are refused: WebhookUrlsTest, without any URL)
		badUrl("http://[::1]:9/hooks", "names a host that resolves to a non-public address (::1 is 0:0:0:0:0:0:0:1)");
		badUrl("http://user:secret@127.0.0.1/hooks",
				"must not hold credentials; authenticate messages by their signature");
		badUrl("http://127.0.0.1/" + "a".repeat(2048), "must be 1 to 2048 characters long (after trimming)");
		Expect
			.problem(
					create(this.partner, "{\"url\": \"" + this.receiver.url() + "\", \"events\": [\"metrics.eaten\"]}"),
					HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[0].field")
			.isEqualTo("events[0]");
		Expect
			.problem(create(this.partner, "{\"url\": \"" + this.receiver.url() + "\", \"secret\": \"mine\"}"),
					HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[0].field")
			.isEqualTo("secret");
		assertThat(this.db.sql("select count(*) from webhooks where partner_id = cast(:p as uuid)")
			.bind("p", this.partner.partnerId())
			.map((row) -> row.get(0, Long.class))
			.one()
			.block()).isZero();

		List<String> ids = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			ids.add(JsonPath.read(create(this.partner, "{\"url\": \"" + this.receiver.url() + "\"}").expectStatus()
				.isCreated()
				.expectBody(String.class)
				.returnResult()
				.getResponseBody(), "$.webhook_id"));
		}
		Expect.problem(create(this.partner, "{\"url\": \"" + this.receiver.url() + "\"}"), HttpStatus.CONFLICT,
				"webhook_limit");
		// another partner sees none of them, and may not touch them
		Credentials other = this.partners.onboard("loadtest");
		Expect.problem(get(other, PATH + "/" + ids.get(0)), HttpStatus.NOT_FOUND, "not_found");
		Expect.problem(this.client.delete().uri(PATH + "/" + ids.get(0)).header("x-api-key", other.apiKey()).exchange(),
				HttpStatus.NOT_FOUND, "not_found");
		assertThat((List<?>) this.api.page(other.apiKey(), PATH).get("data")).isEmpty();
		// the administrator sees the partner's endpoints
		String admin = Partners
			.admin(this.client.get().uri("/admin/v1/partners/{p}/webhooks", this.partner.partnerId()))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat((List<String>) JsonPath.read(admin, "$.data[*].webhook_id")).containsExactlyElementsOf(ids);
		assertThat(admin).doesNotContain("whsec_");
		// a write-only key may not manage endpoints
		Credentials writer = this.partners.onboard("loadtest", "metrics:write");
		Expect.problem(get(writer, PATH), HttpStatus.FORBIDDEN, "insufficient_scope");
		this.client.delete()
			.uri(PATH + "/" + ids.get(0))
			.header("x-api-key", this.partner.apiKey())
			.exchange()
			.expectStatus()
			.isNoContent();
		create(this.partner, "{\"url\": \"" + this.receiver.url() + "\"}").expectStatus().isCreated();
	}

	@Test
	void aFailedMessageIsRetriedWithTheSameIdAndHoldsBackOnlyItsOwnUser() {
		String failing = "member-failing-" + this.user;
		AtomicBoolean refuse = new AtomicBoolean(true);
		this.receiver.answer((request) -> (refuse.get() && request.body().contains(failing)) ? 500 : 204);
		String id = webhook(this.partner, null);
		post(failing, "f1", 1);
		post(failing, "f2", 2);
		for (int i = 0; i < 3; i++) {
			post(this.user, "ok" + i, 3 + i);
		}
		// the other user's messages all arrive while the first of the failing user's
		// fails
		Eventually.eventually(Duration.ofSeconds(10), () -> about(this.user).size() == 3);
		// its failure recorded (after the answer), and its next message held back
		String log = deliveries(id, "?status=failing", (page) -> !((List<?>) JsonPath.read(page, "$.data")).isEmpty());
		assertThat(about(failing)).hasSize(1);
		String firstId = about(failing).get(0).header("webhook-id");
		assertThat((List<Integer>) JsonPath.read(log, "$.data[*].last_status_code")).containsExactly(500);
		assertThat((List<String>) JsonPath.read(log, "$.data[*].last_error")).containsExactly("answered 500");
		// the retry is due about 5 s later (4 to 6 s with jitter), not before
		java.time.Instant last = java.time.Instant.parse(JsonPath.read(log, "$.data[0].last_attempt_at"));
		java.time.Instant next = java.time.Instant.parse(JsonPath.read(log, "$.data[0].next_attempt_at"));
		assertThat(Duration.between(last, next)).isBetween(Duration.ofSeconds(4), Duration.ofSeconds(6));
		assertThat(Eventually.throughout(Duration.ofMillis(500), () -> about(failing).size() == 1)).isTrue();
		// then it comes with the same id, and after it the user's next message
		refuse.set(false);
		this.clock.advance(Duration.ofSeconds(7));
		try {
			Eventually.eventually(Duration.ofSeconds(10), () -> about(failing).size() == 3);
		}
		finally {
			this.clock.advance(Duration.ofSeconds(-7));
		}
		List<Received> messages = about(failing);
		assertThat(messages.get(1).header("webhook-id")).isEqualTo(firstId);
		assertThat(messages.get(1).body()).isEqualTo(messages.get(0).body());
		assertThat((String) JsonPath.read(messages.get(2).body(), "$.data.client_record_id")).isEqualTo("f2");
	}

	@Test
	void aSlowAnswerHoldsBackOnlyItsOwnUserAndEveryMessageIsLoggedOnce() {
		String slow = "member-slow-" + this.user;
		AtomicBoolean first = new AtomicBoolean(true);
		this.receiver.answer((request) -> {
			if (request.body().contains(slow) && first.compareAndSet(true, false)) {
				sleep(Duration.ofSeconds(4));
			}
			return 204;
		});
		String id = webhook(this.partner, null);
		post(slow, "s1", 1);
		post(slow, "s2", 2);
		post(this.user, "a1", 3);
		Eventually.eventually(Duration.ofSeconds(10), () -> about(this.user).size() == 1);
		// written while the slow user's first message is still under way: it goes
		// without waiting for that answer (a receiver keeps a request once it answered)
		post(this.user, "a2", 4);
		Eventually.eventually(Duration.ofSeconds(10), () -> about(this.user).size() == 2);
		assertThat(about(slow)).isEmpty();
		// the slow user's messages then arrive in order, the second after the first's
		// answer
		Eventually.eventually(Duration.ofSeconds(10), () -> about(slow).size() == 2);
		assertThat(about(slow))
			.extracting((message) -> (String) JsonPath.read(message.body(), "$.data.client_record_id"))
			.containsExactly("s1", "s2");
		assertThat(Eventually.throughout(Duration.ofMillis(500), () -> this.receiver.received().size() == 4)).isTrue();
		// one delivery a message in the log, each succeeded at its first attempt
		String log = deliveries(id, "",
				(page) -> ((List<String>) JsonPath.read(page, "$.data[*].status")).stream()
					.filter("succeeded"::equals)
					.count() == 4);
		assertThat((List<String>) JsonPath.read(log, "$.data[*].status")).containsOnly("succeeded").hasSize(4);
		assertThat((List<Integer>) JsonPath.read(log, "$.data[*].attempts")).containsOnly(1);
		assertThat((List<Integer>) JsonPath.read(log, "$.data[*].last_status_code")).containsOnly(204);
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void goneDisablesTheEndpointAndEnablingItAgainSendsWhatItMissedInOrder() {
		this.receiver.answer((request) -> 410);
		String id = webhook(this.partner, null);
		post(this.user, "g1", 1);
		String disabled = Eventually.eventually(Duration.ofSeconds(10),
				() -> get(this.partner, PATH + "/" + id).expectBody(String.class).returnResult().getResponseBody(),
				(view) -> view.contains("\"status\":\"disabled\""));
		assertThat((String) JsonPath.read(disabled, "$.disabled_reason"))
			.startsWith("The endpoint answered 410 Gone at ");
		int before = this.receiver.received().size();
		this.receiver.answer((request) -> 204);
		for (int i = 2; i <= 4; i++) {
			post(this.user, "g" + i, i);
		}
		Expect.problem(
				this.client.post().uri(PATH + "/" + id + "/test").header("x-api-key", this.partner.apiKey()).exchange(),
				HttpStatus.CONFLICT, "conflict");
		assertThat(Eventually.throughout(Duration.ofSeconds(1), () -> this.receiver.received().size() == before))
			.isTrue();
		patch(this.partner, id, "{\"status\": \"enabled\"}").expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("enabled")
			.jsonPath("$.disabled_reason")
			.isEmpty();
		Eventually.eventually(Duration.ofSeconds(10), () -> this.receiver.received().size() == before + 4);
		List<Received> resumed = this.receiver.received().subList(before, before + 4);
		assertThat(resumed).extracting((message) -> (String) JsonPath.read(message.body(), "$.data.client_record_id"))
			.containsExactly("g1", "g2", "g3", "g4");
		assertThat(resumed).extracting((message) -> (String) JsonPath.read(message.body(), "$.data.change_id"))
			.containsExactlyElementsOf(new Feed(this.client, this.partner.apiKey()).drain(1000)
				.stream()
				.map((change) -> (String) change.get("change_id"))
				.toList());
	}

	@Test
	void messagesAreSentFromThreadsAtTheLowestPriority() throws Exception {
		String created = create(this.partner, "{\"url\": \"" + this.receiver.url() + "\"}").expectBody(String.class)
			.returnResult()
			.getResponseBody();
		action(PATH + "/" + JsonPath.read(created, "$.webhook_id") + "/test", HttpStatus.ACCEPTED);
		Eventually.eventually(Duration.ofSeconds(10), () -> this.receiver.received(), (got) -> !got.isEmpty());
		// the sender's threads by the names the kernel has for them (15 characters at
		// most): its event loops (webhooks-io_uring-1, webhooks-epoll-1 or
		// webhooks-nio-1) and the threads that start runs and resolve names (webhooks-1)
		Map<String, Integer> nices = new java.util.TreeMap<>();
		try (var threads = Files.list(Path.of("/proc/self/task"))) {
			for (Path thread : threads.toList()) {
				String name = Files.readString(thread.resolve("comm")).strip();
				if (name.startsWith("webhooks-")) {
					nices.put(name + " " + thread.getFileName(), ThreadPriorities.niceOf(thread));
				}
			}
		}
		assertThat(nices.keySet()).anyMatch((name) -> name.matches("webhooks-\\d+ .*"))
			.anyMatch((name) -> name.matches("webhooks-(io_uri|epoll|nio).*"));
		assertThat(nices.values()).containsOnly(LowPriority.LOWEST);
	}

	@Test
	void aRotatedSecretSignsBesideTheOldOneAndTheTestEventAndRedeliveryReachTheEndpoint() throws Exception {
		String created = create(this.partner, "{\"url\": \"" + this.receiver.url() + "\"}").expectBody(String.class)
			.returnResult()
			.getResponseBody();
		String id = JsonPath.read(created, "$.webhook_id");
		String oldSecret = JsonPath.read(created, "$.secret");
		String rotated = action(PATH + "/" + id + "/rotate-secret", HttpStatus.OK);
		String newSecret = JsonPath.read(rotated, "$.secret");
		assertThat(newSecret).isNotEqualTo(oldSecret).startsWith("whsec_");
		assertThat((String) JsonPath.read(rotated, "$.previous_secret_expires_at")).isNotNull();
		String test = action(PATH + "/" + id + "/test", HttpStatus.ACCEPTED);
		assertThat((String) JsonPath.read(test, "$.event_type")).isEqualTo("webhook.test");
		Received message = Eventually
			.eventually(Duration.ofSeconds(10), () -> this.receiver.received(), (got) -> !got.isEmpty())
			.get(0);
		assertThat((String) JsonPath.read(message.body(), "$.type")).isEqualTo("webhook.test");
		assertThat((String) JsonPath.read(message.body(), "$.data.webhook_id")).isEqualTo(id);
		Object cursor = JsonPath.read(message.body(), "$.cursor");
		assertThat(cursor).isNull();
		long timestamp = Long.parseLong(message.header("webhook-timestamp"));
		String messageId = message.header("webhook-id");
		assertThat(message.header("webhook-signature"))
			.isEqualTo(new Webhook(newSecret).sign(messageId, timestamp, message.body()) + " "
					+ new Webhook(oldSecret).sign(messageId, timestamp, message.body()));
		// once the old secret has expired, only the new one signs
		String deliveryId = JsonPath.read(test, "$.delivery_id");
		deliveries(id, "", (page) -> page.contains("\"status\":\"succeeded\""));
		// as if 24 h had passed (other tests need the service's clock near the real time)
		this.db.sql(
				"update webhooks set previous_until = previous_until - interval '25 hours' where id = cast(:id as uuid)")
			.bind("id", id)
			.fetch()
			.rowsUpdated()
			.block();
		assertThat((String) JsonPath.read(
				action(PATH + "/" + id + "/deliveries/" + deliveryId + "/redeliver", HttpStatus.ACCEPTED), "$.status"))
			.isEqualTo("pending");
		Received again = Eventually
			.eventually(Duration.ofSeconds(10), () -> this.receiver.received(), (got) -> got.size() == 2)
			.get(1);
		assertThat(again.header("webhook-id")).isEqualTo(messageId);
		assertThat(again.body()).isEqualTo(message.body());
		assertThat(again.header("webhook-signature")).isEqualTo(new Webhook(newSecret).sign(messageId,
				Long.parseLong(again.header("webhook-timestamp")), again.body()));
	}

	@Test
	void anEndpointGetsOnlyTheEventsItAskedForAndAnErasureTakesTheUsersMessagesWithIt() {
		String id = webhook(this.partner, "[\"assessments.created\", \"user.erased\", \"erasure.completed\"]");
		post(this.user, "m1", 1);
		this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"responses\": {\"smoker\": false}}");
		Eventually.eventually(Duration.ofSeconds(10), () -> this.receiver.received().size() == 1);
		assertThat((String) JsonPath.read(this.receiver.received().get(0).body(), "$.type"))
			.isEqualTo("assessments.created");
		this.api.erase(this.partner.apiKey(), this.user);
		Eventually.eventually(Duration.ofSeconds(20), () -> this.receiver.received().size() == 3);
		List<String> types = this.receiver.received()
			.stream()
			.map((message) -> (String) JsonPath.read(message.body(), "$.type"))
			.toList();
		assertThat(types).containsExactly("assessments.created", "user.erased", "erasure.completed");
		Received completed = this.receiver.received().get(2);
		assertThat((String) JsonPath.read(completed.body(), "$.data.user_id")).isEqualTo(this.user);
		assertThat((String) JsonPath.read(completed.body(), "$.data.status")).isEqualTo("completed");
		// no delivery of the erased user's records is kept: only the erasure's are
		assertThat(this.db
			.sql("select string_agg(event_type, ',' order by change_txid, change_seq) from webhook_deliveries "
					+ "where webhook_id = cast(:id as uuid) and user_id is not null")
			.bind("id", id)
			.map((row) -> row.get(0, String.class))
			.one()
			.block()).isEqualTo("user.erased,erasure.completed");
	}

	@Test
	void anEndpointWhoseHostIsNoLongerAllowedIsNotSentTo() {
		String id = webhook(this.partner, null);
		// as if the name had resolved to a public address when saved: the check at the
		// attempt refuses it
		this.db.sql("update webhooks set url = :url where id = cast(:id as uuid)")
			.bind("url", this.receiver.url().replace("127.0.0.1", "localhost"))
			.bind("id", id)
			.fetch()
			.rowsUpdated()
			.block();
		post(this.user, "n1", 1);
		String log = deliveries(id, "", (page) -> page.contains("\"status\":\"failing\""));
		assertThat((List<String>) JsonPath.read(log, "$.data[*].last_error")).containsExactly(
				"Not sent: the URL names a host that resolves to a non-public address (localhost is 127.0.0.1)");
		assertThat(this.receiver.received()).isEmpty();
	}

	@Test
	void concurrentWritesOfManyUsersAllArriveInFeedOrderPerUser() {
		webhook(this.partner, null);
		int usersCount = 20;
		int writes = 2000;
		List<String> users = new ArrayList<>();
		for (int u = 0; u < usersCount; u++) {
			users.add(this.user + "-" + u);
		}
		reactor.core.publisher.Flux.range(0, writes)
			.flatMap((i) -> this.client.post()
				.uri(HealthApi.METRICS)
				.header("x-api-key", this.partner.apiKey())
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue("{\"user_id\": \"" + users.get(i % usersCount) + "\", \"metrics\": {\"weight\": "
						+ (50 + i % 50) + "}}")
				.exchange()
				.returnResult(String.class)
				.getResponseBody()
				.then(), 64)
			.blockLast(Duration.ofSeconds(120));
		Eventually.eventually(Duration.ofSeconds(60), () -> this.receiver.received().size() == writes);
		List<Map<String, Object>> feed = new Feed(this.client, this.partner.apiKey()).drain(1000);
		assertThat(feed).hasSize(writes);
		Map<String, List<String>> sent = new java.util.HashMap<>();
		for (Received message : this.receiver.received()) {
			sent.computeIfAbsent(JsonPath.read(message.body(), "$.data.user_id"), (key) -> new ArrayList<>())
				.add(JsonPath.read(message.body(), "$.data.change_id"));
		}
		for (String user : users) {
			List<String> listed = feed.stream()
				.filter((change) -> user.equals(change.get("user_id")))
				.map((change) -> (String) change.get("change_id"))
				.toList();
			assertThat(sent.get(user)).as(user).hasSize(writes / usersCount).containsExactlyElementsOf(listed);
		}
	}

	@Test
	void anImportThatEndsIsSentAsImportCompletedWithItsCounts() {
		webhook(this.partner, "[\"import.completed\"]");
		String body = "{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}\n" + "not json\n";
		String created = this.client.post()
			.uri("/api/v1/health/imports?kind=metrics")
			.header("x-api-key", this.partner.apiKey())
			.contentType(MediaType.APPLICATION_NDJSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		Received message = Eventually
			.eventually(Duration.ofSeconds(20), () -> this.receiver.received(), (got) -> !got.isEmpty())
			.get(0);
		assertThat((String) JsonPath.read(message.body(), "$.type")).isEqualTo("import.completed");
		assertThat((String) JsonPath.read(message.body(), "$.data.import_id"))
			.isEqualTo(JsonPath.read(created, "$.import_id"));
		assertThat((Map<String, Object>) JsonPath.read(message.body(), "$.data")).containsEntry("status", "completed")
			.containsEntry("lines", 2)
			.containsEntry("created", 1)
			.containsEntry("failed", 1);
		Object cursor = JsonPath.read(message.body(), "$.cursor");
		assertThat(cursor).isNull();
		// the record's own change was not asked for
		assertThat(Eventually.throughout(Duration.ofMillis(500), () -> this.receiver.received().size() == 1)).isTrue();
	}

	@Test
	void aMessageWhoseReadScopeThePartnerLostIsGivenUpUnsentAndItsUsersNextMessageStillGoes() {
		AtomicBoolean refuse = new AtomicBoolean(true);
		this.receiver.answer((request) -> refuse.get() ? 500 : 204);
		String id = webhook(this.partner, null);
		post(this.user, "s1", 1);
		deliveries(id, "?status=failing", (page) -> !((List<?>) JsonPath.read(page, "$.data")).isEmpty());
		// held behind the failing one: same user
		this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"responses\": {\"smoker\": false}}");
		this.partners.patch(this.partner.partnerId(),
				Map.of("scopes", List.of("metrics:write", "assessments:read", "assessments:write")));
		refuse.set(false);
		this.clock.advance(Duration.ofSeconds(7));
		try {
			Eventually.eventually(Duration.ofSeconds(10), () -> this.receiver.received().size() == 2);
		}
		finally {
			this.clock.advance(Duration.ofSeconds(-7));
		}
		// the metrics message was not sent again; the assessment's went
		assertThat((String) JsonPath.read(this.receiver.received().get(1).body(), "$.type"))
			.isEqualTo("assessments.created");
		String log = deliveries(id, "?status=given_up", (page) -> !((List<?>) JsonPath.read(page, "$.data")).isEmpty());
		assertThat((List<String>) JsonPath.read(log, "$.data[*].event_type")).containsExactly("metrics.created");
		assertThat((List<String>) JsonPath.read(log, "$.data[*].last_error"))
			.containsExactly("Not sent: the partner no longer holds the scope metrics:read");
		assertThat((List<Integer>) JsonPath.read(log, "$.data[*].attempts")).containsExactly(1);
		// the endpoint did nothing wrong: its state is as the earlier failure left it
		get(this.partner, PATH + "/" + id).expectBody().jsonPath("$.status").isEqualTo("enabled");
		assertThat(Eventually.throughout(Duration.ofMillis(500), () -> this.receiver.received().size() == 2)).isTrue();
	}

	@Test
	void finishedDeliveriesAreDeletedOnceAsOldAsTheFeedKeepsChangesAndOpenOnesStay() {
		String failing = "member-failing-" + this.user;
		this.receiver.answer((request) -> request.body().contains(failing) ? 500 : 204);
		String id = webhook(this.partner, null);
		post(this.user, "r1", 1);
		post(failing, "r2", 2);
		deliveries(id, "",
				(page) -> page.contains("\"status\":\"succeeded\"") && page.contains("\"status\":\"failing\""));
		// as if both had been made 31 days ago (the feed keeps changes 30)
		this.db.sql("update webhook_deliveries set created_at = :at where webhook_id = cast(:id as uuid)")
			.bind("at", this.clock.instant().minus(Duration.ofDays(31)))
			.bind("id", id)
			.fetch()
			.rowsUpdated()
			.block();
		// the logs of endpoints other tests deleted go first, so that the count is of
		// finished deliveries alone
		this.retention.sweep(Instant.EPOCH, Instant.EPOCH).block(Duration.ofSeconds(30));
		assertThat(this.retention.sweep().block(Duration.ofSeconds(30))).isEqualTo(1L);
		String log = get(this.partner, PATH + "/" + id + "/deliveries").expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat((List<String>) JsonPath.read(log, "$.data[*].status")).containsExactly("failing");
	}

	@Test
	void aDeletedEndpointGoesAtOnceAndItsDeliveriesAfterIt() {
		String id = webhook(this.partner, null);
		post(this.user, "g1", 1);
		post(this.user, "g2", 2);
		deliveries(id, "?status=succeeded", (page) -> ((List<?>) JsonPath.read(page, "$.data")).size() == 2);
		this.client.delete()
			.uri(PATH + "/" + id)
			.header("x-api-key", this.partner.apiKey())
			.exchange()
			.expectStatus()
			.isNoContent();
		// the endpoint is gone for the partner at once, its log with it
		Expect.problem(get(this.partner, PATH + "/" + id), HttpStatus.NOT_FOUND, "not_found");
		Expect.problem(get(this.partner, PATH + "/" + id + "/deliveries"), HttpStatus.NOT_FOUND, "not_found");
		Expect.problem(this.client.delete().uri(PATH + "/" + id).header("x-api-key", this.partner.apiKey()).exchange(),
				HttpStatus.NOT_FOUND, "not_found");
		// its rows go with the next sweep; the id is kept an hour for a late one
		assertThat(storedDeliveries(id)).isEqualTo(2);
		this.retention.sweep().block(Duration.ofSeconds(30));
		assertThat(storedDeliveries(id)).isZero();
		assertThat(deletedKept(id)).isTrue();
		this.retention.sweep(this.clock.instant().minus(Duration.ofDays(30)), this.clock.instant().plusSeconds(1))
			.block(Duration.ofSeconds(30));
		assertThat(deletedKept(id)).isFalse();
		// nothing more is sent to it
		post(this.user, "g3", 3);
		assertThat(Eventually.throughout(Duration.ofMillis(500), () -> this.receiver.received().size() == 2)).isTrue();
	}

	private long storedDeliveries(String webhookId) {
		return count("select count(*) from webhook_deliveries where webhook_id = cast(:id as uuid)", webhookId);
	}

	private boolean deletedKept(String webhookId) {
		return count("select count(*) from webhooks_deleted where id = cast(:id as uuid)", webhookId) == 1;
	}

	private long count(String sql, String id) {
		return this.db.sql(sql).bind("id", id).map((row) -> row.get(0, Long.class)).one().block();
	}

	@Test
	void anEndpointWhoseEveryAttemptFailedFor24HoursIsDisabled() {
		this.receiver.answer((request) -> 503);
		String id = webhook(this.partner, null);
		// as if its attempts had been failing for 25 hours
		this.db.sql("update webhooks set failing_since = now() - interval '25 hours' where id = cast(:id as uuid)")
			.bind("id", id)
			.fetch()
			.rowsUpdated()
			.block();
		post(this.user, "d1", 1);
		String disabled = Eventually.eventually(Duration.ofSeconds(10),
				() -> get(this.partner, PATH + "/" + id).expectBody(String.class).returnResult().getResponseBody(),
				(view) -> view.contains("\"status\":\"disabled\""));
		assertThat((String) JsonPath.read(disabled, "$.disabled_reason")).startsWith("Every attempt failed from ");
		assertThat(this.receiver.received()).hasSize(1);
	}

	private List<Received> about(String user) {
		return this.receiver.received()
			.stream()
			.filter((message) -> user.equals(JsonPath.read(message.body(), "$.data.user_id")))
			.toList();
	}

	private void post(String user, String clientId, int weight) {
		this.api.create(HealthApi.METRICS, this.partner.apiKey(), "{\"user_id\": \"" + user
				+ "\", \"client_record_id\": \"" + clientId + "\", \"metrics\": {\"weight\": " + (60 + weight) + "}}");
	}

	private String webhook(Credentials partner, String events) {
		String body = "{\"url\": \"" + this.receiver.url() + "\"" + ((events != null) ? ", \"events\": " + events : "")
				+ "}";
		return JsonPath.read(create(partner, body).expectStatus()
			.isCreated()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody(), "$.webhook_id");
	}

	private void badUrl(String url, String message) {
		Expect.problem(create(this.partner, "{\"url\": \"" + url + "\"}"), HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[0].field")
			.isEqualTo("url")
			.jsonPath("$.errors[0].message")
			.isEqualTo(message);
	}

	private WebTestClient.ResponseSpec create(Credentials partner, String body) {
		return this.client.post()
			.uri(PATH)
			.header("x-api-key", partner.apiKey())
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange();
	}

	/** A POST without body by the test's partner, expected {@code status}; its answer. */
	private String action(String path, HttpStatus status) {
		return this.client.post()
			.uri(path)
			.header("x-api-key", this.partner.apiKey())
			.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
	}

	private WebTestClient.ResponseSpec patch(Credentials partner, String id, String body) {
		return this.client.patch()
			.uri(PATH + "/" + id)
			.header("x-api-key", partner.apiKey())
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange();
	}

	/**
	 * The delivery log of endpoint {@code id} ({@code query} added), once {@code until}
	 * holds.
	 */
	private String deliveries(String id, String query, Predicate<String> until) {
		return Eventually.eventually(Duration.ofSeconds(10),
				() -> get(this.partner, PATH + "/" + id + "/deliveries" + query).expectStatus()
					.isOk()
					.expectBody(String.class)
					.returnResult()
					.getResponseBody(),
				until);
	}

	private WebTestClient.ResponseSpec get(Credentials partner, String path) {
		return this.client.get().uri(path).header("x-api-key", partner.apiKey()).exchange();
	}

}
