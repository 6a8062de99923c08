package com.healthpartner.api.changes;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.Feed;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The feed never skips: many writers on two instances commit concurrently (creates,
 * versioned updates, deletes) while a reader follows the cursor; every acknowledged write
 * appears exactly once, and each record's changes appear in the order they were written.
 */
class FeedAcrossInstancesIT extends IntegrationTest {

	private static final int WRITERS = 12;

	private static final int WRITES_PER_WRITER = 30;

	private static ServiceInstance other;

	@BeforeAll
	static void startSecondInstance() {
		other = ServiceInstance.start(Map.of());
	}

	@AfterAll
	static void stopSecondInstance() {
		other.close();
	}

	@Test
	void everyAcknowledgedWriteAppearsExactlyOnceWhileTheReaderFollowsTheCursor() throws Exception {
		Credentials partner = this.partners.onboard("loadtest");
		Set<String> acknowledged = ConcurrentHashMap.newKeySet();
		AtomicBoolean writing = new AtomicBoolean(true);
		List<String> seen = new ArrayList<>();
		ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
		try {
			Future<?> reader = pool.submit(() -> {
				Feed feed = new Feed(this.client, partner.apiKey());
				while (writing.get()) {
					feed.drain(50).forEach((change) -> seen.add(key(change)));
				}
				Instant until = Instant.now().plusSeconds(10);
				while (!seen.containsAll(acknowledged) && Instant.now().isBefore(until)) {
					feed.drain(50).forEach((change) -> seen.add(key(change)));
				}
			});
			List<Future<?>> writers = new ArrayList<>();
			for (int w = 0; w < WRITERS; w++) {
				WebTestClient instance = (w % 2 == 0) ? this.client : other.client();
				String user = "writer-" + w + "-" + UUID.randomUUID();
				writers.add(pool.submit(() -> write(instance, partner.apiKey(), user, acknowledged)));
			}
			for (Future<?> writer : writers) {
				writer.get();
			}
			writing.set(false);
			reader.get();
		}
		finally {
			pool.shutdown();
		}
		assertThat(acknowledged).hasSize(WRITERS * WRITES_PER_WRITER);
		assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(acknowledged);
		// each record's changes in the order they were written
		Map<String, List<String>> perRecord = new HashMap<>();
		for (String change : seen) {
			String[] parts = change.split(" ");
			perRecord.computeIfAbsent(parts[1], (id) -> new ArrayList<>()).add(parts[0] + " " + parts[2]);
		}
		perRecord.values().forEach((changes) -> {
			assertThat(changes.get(0)).startsWith("created");
			for (int i = 1; i < changes.size(); i++) {
				assertThat(changes.get(i)).doesNotStartWith("created");
			}
		});
	}

	/**
	 * Creates a record, updates it twice with higher versions, and deletes every third:
	 * each answered write is noted as the change the feed must list.
	 */
	private static void write(WebTestClient client, String apiKey, String user, Set<String> acknowledged) {
		int written = 0;
		int record = 0;
		while (written < WRITES_PER_WRITER) {
			String clientId = user + "-r" + record++;
			String id = null;
			for (int version = 0; version < 3 && written < WRITES_PER_WRITER; version++) {
				byte[] body = client.post()
					.uri("/api/v1/health/metrics")
					.header("x-api-key", apiKey)
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue("{\"user_id\": \"" + user + "\", \"client_record_id\": \"" + clientId
							+ "\", \"client_record_version\": " + version + ", \"metrics\": {\"steps\": " + version
							+ "}}")
					.exchange()
					.expectStatus()
					.is2xxSuccessful()
					.expectBody()
					.returnResult()
					.getResponseBodyContent();
				id = JsonPath.read(new String(body), "$.id");
				acknowledged.add(((version == 0) ? "created" : "updated") + " " + id + " " + version);
				written++;
			}
			if (record % 3 == 0 && written < WRITES_PER_WRITER) {
				client.delete()
					.uri("/api/v1/health/metrics/" + id)
					.header("x-api-key", apiKey)
					.exchange()
					.expectStatus()
					.isNoContent();
				acknowledged.add("deleted " + id + " -");
				written++;
			}
		}
	}

	@SuppressWarnings("unchecked")
	private static String key(Map<String, Object> change) {
		Object record = change.get("record");
		String version = (record != null) ? String.valueOf(((Map<String, Object>) record).get("client_record_version"))
				: "-";
		return change.get("kind") + " " + change.get("id") + " " + version;
	}

}
