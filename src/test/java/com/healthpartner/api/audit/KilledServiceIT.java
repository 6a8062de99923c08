package com.healthpartner.api.audit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.SeparateJvmInstance;
import com.healthpartner.api.support.TestInfrastructure;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service killed with SIGKILL under 16 concurrent writers, then started
 * again on the same database while every writer retries its unanswered request with the
 * same {@code Idempotency-Key} until it is answered: every acknowledged write is stored,
 * once, with exactly one write event in the audit trail. Each request writes for a user
 * of its own, which links a record, its key and its event exactly. The children's output
 * is in {@code target/killed-service-*.log}.
 */
class KilledServiceIT {

	private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");

	private static final int WRITERS = 16;

	private final List<SeparateJvmInstance> children = new ArrayList<>();

	@AfterEach
	void killChildren() throws InterruptedException {
		for (SeparateJvmInstance child : this.children) {
			child.kill();
		}
	}

	@Test
	void everyAcknowledgedWriteSurvivesASigkillOnceWithItsAuditEvent() throws Exception {
		int port = TestInfrastructure.freePort();
		SeparateJvmInstance first = start("killed-service-1", port);
		String base = first.baseUrl();
		Credentials partner = new Partners(
				WebTestClient.bindToServer().baseUrl(base).responseTimeout(Duration.ofSeconds(30)).build())
			.onboard("loadtest");

		Map<String, String> acknowledged = new ConcurrentHashMap<>();
		AtomicBoolean stopNew = new AtomicBoolean();
		AtomicInteger failedAttempts = new AtomicInteger();
		List<Thread> writers = new ArrayList<>();
		for (int i = 0; i < WRITERS; i++) {
			Thread writer = new Thread(() -> write(base, partner.apiKey(), stopNew, acknowledged, failedAttempts),
					"writer-" + i);
			writer.start();
			writers.add(writer);
		}
		// the kill comes in the middle of a steady stream of writes
		Eventually.eventually(Duration.ofSeconds(60), acknowledged::size, (count) -> count > 200);
		int beforeKill = acknowledged.size();
		first.kill();
		SeparateJvmInstance second = start("killed-service-2", port);
		// the writers go on against the restarted service before they stop
		Eventually.eventually(Duration.ofSeconds(60), acknowledged::size, (count) -> count > beforeKill + 100);
		int afterRestart = acknowledged.size();
		stopNew.set(true);
		for (Thread writer : writers) {
			// a request cut off after its key was claimed waits out the claim's lease (30
			// s)
			writer.join(TimeUnit.SECONDS.toMillis(50));
			assertThat(writer.isAlive()).as(writer.getName() + " got its last write answered").isFalse();
		}
		assertThat(second.isAlive()).isTrue();

		assertThat(beforeKill).as("writes acknowledged before the kill").isGreaterThan(200);
		assertThat(afterRestart).as("writes acknowledged after the restart").isGreaterThan(beforeKill + 100);
		assertThat(failedAttempts.get()).as("attempts that met the dead service").isPositive();
		Map<String, List<String>> records = new HashMap<>();
		Map<String, Long> events = new HashMap<>();
		DatabaseClient db = TestInfrastructure.databaseClient();
		db.sql("select user_id, id from metric_records where partner_id = :p")
			.bind("p", UUID.fromString(partner.partnerId()))
			.map((row) -> Map.entry(row.get(0, String.class), row.get(1, UUID.class).toString()))
			.all()
			.doOnNext((row) -> records.computeIfAbsent(row.getKey(), (user) -> new ArrayList<>()).add(row.getValue()))
			.then()
			.block(Duration.ofSeconds(30));
		db.sql("select user_id, count(*) from audit_events where partner_id = :p and action = 'write' "
				+ "and resource = 'metrics' group by user_id")
			.bind("p", UUID.fromString(partner.partnerId()))
			.map((row) -> Map.entry(row.get(0, String.class), row.get(1, Long.class)))
			.all()
			.doOnNext((row) -> events.put(row.getKey(), row.getValue()))
			.then()
			.block(Duration.ofSeconds(30));

		// every write was retried until acknowledged: exactly those are stored, once each
		assertThat(records.keySet()).isEqualTo(acknowledged.keySet());
		Set<String> duplicated = new HashSet<>();
		acknowledged.forEach((user, id) -> {
			if (!records.get(user).equals(List.of(id))) {
				duplicated.add(user + " acknowledged " + id + ", stored " + records.get(user));
			}
		});
		assertThat(duplicated).as("writes not stored exactly once under the acknowledged id").isEmpty();
		Map<String, Long> oneEachAcknowledged = new HashMap<>();
		acknowledged.keySet().forEach((user) -> oneEachAcknowledged.put(user, 1L));
		assertThat(events).as("write events per acknowledged write").isEqualTo(oneEachAcknowledged);
	}

	/**
	 * Writes until told to stop, each write with a key and user of its own, retrying an
	 * unanswered write (no answer, a 5xx, a 409 while its key is claimed) with the same
	 * key until it is acknowledged.
	 */
	private static void write(String base, String apiKey, AtomicBoolean stopNew, Map<String, String> acknowledged,
			AtomicInteger failedAttempts) {
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(2))
			.build();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
		while (!stopNew.get() && System.nanoTime() < deadline) {
			String key = "crash-" + UUID.randomUUID();
			String user = "crash-user-" + UUID.randomUUID();
			HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/health/metrics"))
				.timeout(Duration.ofSeconds(5))
				.header("x-api-key", apiKey)
				.header("Content-Type", "application/json")
				.header("Idempotency-Key", key)
				.POST(HttpRequest.BodyPublishers
					.ofString("{\"user_id\":\"" + user + "\",\"metrics\":{\"steps\":" + key.length() + "}}"))
				.build();
			while (System.nanoTime() < deadline) {
				try {
					HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
					if (answer.statusCode() == 201) {
						Matcher id = ID.matcher(answer.body());
						if (!id.find()) {
							throw new IllegalStateException("201 without an id: " + answer.body());
						}
						acknowledged.put(user, id.group(1));
						break;
					}
					if (answer.statusCode() != 409 && answer.statusCode() < 500) {
						throw new IllegalStateException(answer.statusCode() + ": " + answer.body());
					}
				}
				catch (IOException ex) {
					// the service is gone or not up yet: the write is unanswered
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
				failedAttempts.incrementAndGet();
				try {
					Thread.sleep(100);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	private SeparateJvmInstance start(String name, int port) {
		SeparateJvmInstance child = SeparateJvmInstance.launchJar(name, port, List.of("-Xmx384m"));
		this.children.add(child);
		return child.awaitReady();
	}

}
