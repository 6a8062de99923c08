package com.healthpartner.api.webhook;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.SeparateJvmInstance;
import com.healthpartner.api.support.TestInfrastructure;
import com.healthpartner.api.support.WebhookReceiver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service killed with SIGKILL while it sends the messages of 600 changes of
 * 20 users to a receiver on 127.0.0.1, then started again on the same database: every
 * change reaches the receiver (at least once: an attempt under way at the kill is sent
 * again once its lease lapses, with the same {@code webhook-id}), and each user's
 * messages arrive in the order of the feed. Attempts time out after 1 s (10 s by
 * default), so leases lapse after 12 s. The children's output is in
 * {@code target/killed-webhooks-*.log}.
 */
class KilledWebhooksIT {

	private static final int USERS = 20;

	private static final int CHANGES = 600;

	private final List<SeparateJvmInstance> children = new ArrayList<>();

	private final WebhookReceiver receiver = new WebhookReceiver();

	@AfterEach
	void stop() throws InterruptedException {
		for (SeparateJvmInstance child : this.children) {
			child.kill();
		}
		this.receiver.close();
	}

	@Test
	void noMessageIsLostWhenTheSendingInstanceIsKilled() throws Exception {
		// slow answers keep many attempts under way when the kill comes
		this.receiver.answer((request) -> {
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return 204;
		});
		int port = TestInfrastructure.freePort();
		SeparateJvmInstance first = start("killed-webhooks-1", port);
		Credentials partner = new Partners(
				WebTestClient.bindToServer().baseUrl(first.baseUrl()).responseTimeout(Duration.ofSeconds(60)).build())
			.onboard("loadtest");
		HttpClient http = HttpClient.newHttpClient();
		HttpResponse<String> created = http
			.send(HttpRequest.newBuilder(URI.create(first.baseUrl() + "/api/v1/webhooks"))
				.header("x-api-key", partner.apiKey())
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"url\": \"" + this.receiver.url() + "\"}"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

		// in waves of 50 concurrent writes: all 600 at once to an instance just started
		// on
		// a slow 2-core machine took some past the request deadline (503)
		for (int wave = 0; wave < CHANGES; wave += 50) {
			List<CompletableFuture<HttpResponse<String>>> writes = new ArrayList<>();
			for (int i = wave; i < wave + 50; i++) {
				writes.add(http.sendAsync(HttpRequest.newBuilder(URI.create(first.baseUrl() + "/api/v1/health/metrics"))
					.header("x-api-key", partner.apiKey())
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString("{\"user_id\": \"killed-hooks-" + (i % USERS)
							+ "\", \"metrics\": {\"weight\": " + (40 + i % 100) + "}}"))
					.build(), HttpResponse.BodyHandlers.ofString()));
			}
			for (CompletableFuture<HttpResponse<String>> write : writes) {
				assertThat(write.get().statusCode()).as(write.get().body()).isEqualTo(201);
			}
		}
		Eventually.eventually(Duration.ofSeconds(60), () -> this.receiver.received().size() >= 100);
		first.kill();
		int beforeKill = this.receiver.received().size();
		assertThat(beforeKill).as("messages received before the kill").isLessThan(CHANGES);

		start("killed-webhooks-2", port);
		DatabaseClient db = TestInfrastructure.databaseClient();
		List<String> feed = db
			.sql("select txid::text || '.' || seq from changes where partner_id = cast(:p as uuid) order by txid, seq")
			.bind("p", partner.partnerId())
			.map((row) -> row.get(0, String.class))
			.all()
			.collectList()
			.block(Duration.ofSeconds(30));
		assertThat(feed).hasSize(CHANGES);
		Eventually.eventually(Duration.ofSeconds(120), () -> firstArrivals().size() == CHANGES);
		Map<String, String> arrivals = firstArrivals();
		assertThat(arrivals.values()).as("every change, once each by webhook-id")
			.containsExactlyInAnyOrderElementsOf(feed);
		// each user's messages in feed order (first arrival of each message)
		Map<String, List<String>> byUser = new LinkedHashMap<>();
		for (WebhookReceiver.Received message : this.receiver.received()) {
			String user = JsonPath.read(message.body(), "$.data.user_id");
			String change = JsonPath.read(message.body(), "$.data.change_id");
			List<String> seen = byUser.computeIfAbsent(user, (key) -> new ArrayList<>());
			if (!seen.contains(change)) {
				seen.add(change);
			}
		}
		assertThat(byUser).hasSize(USERS);
		byUser.forEach((user, changes) -> assertThat(changes).as(user)
			.isSortedAccordingTo((a, b) -> Integer.compare(feed.indexOf(a), feed.indexOf(b))));
		// an attempt under way at the kill reached the receiver, was never recorded,
		// and is sent again and recorded only once its lease lapses (12 s after its
		// claim): that can be after every other message has arrived (and a retry after
		// a failed attempt comes 5 s, then 30 s later)
		Long succeeded = Eventually.eventually(Duration.ofSeconds(90), () -> succeededDeliveries(db, partner),
				(count) -> count == CHANGES);
		assertThat(succeeded).as("deliveries succeeded").isEqualTo(CHANGES);
	}

	private static Long succeededDeliveries(DatabaseClient db, Credentials partner) {
		return db
			.sql("select count(*) from webhook_deliveries where partner_id = cast(:p as uuid) "
					+ "and status = 'succeeded'")
			.bind("p", partner.partnerId())
			.map((row) -> row.get(0, Long.class))
			.one()
			.block(Duration.ofSeconds(30));
	}

	/**
	 * The change of each distinct message received, by webhook-id, in order of arrival.
	 */
	private Map<String, String> firstArrivals() {
		Map<String, String> arrivals = new LinkedHashMap<>();
		for (WebhookReceiver.Received message : this.receiver.received()) {
			arrivals.putIfAbsent(message.header("webhook-id"), JsonPath.read(message.body(), "$.data.change_id"));
		}
		return arrivals;
	}

	private SeparateJvmInstance start(String name, int port) {
		SeparateJvmInstance child = SeparateJvmInstance.launchJar(name, port,
				List.of("-Xmx384m", "-Dapp.webhooks.allow-http=true", "-Dapp.webhooks.allowed-hosts=127.0.0.1",
						"-Dapp.webhooks.timeout=1s"));
		this.children.add(child);
		return child.awaitReady();
	}

}
