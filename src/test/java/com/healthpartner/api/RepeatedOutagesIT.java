package com.healthpartner.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;
import com.healthpartner.api.support.TestInfrastructure;
import com.healthpartner.api.support.TestInfrastructure.RestartableDatabase;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL stops and starts again six times, for 0.3 to 5 seconds, under two instances
 * and eight writers that retry with their {@code Idempotency-Key} as a careful partner
 * does. Every request is answered within 3 s (a {@code 503} with {@code Retry-After}
 * while the database is gone), writes succeed again within 2 s of each return, no
 * acknowledged write is lost or doubled, and after the last outage every route works and
 * a key revoked or a partner suspended on one instance is refused by the other.
 */
class RepeatedOutagesIT {

	private static final long[] OUTAGES_MS = { 1000, 3000, 300, 5000, 2000, 600 };

	private static final Duration ANSWER_WITHIN = Duration.ofSeconds(3);

	private static RestartableDatabase database;

	private static ServiceInstance first;

	private static ServiceInstance second;

	@BeforeAll
	static void start() {
		database = TestInfrastructure.restartablePostgres();
		first = ServiceInstance.start(database.database(), Map.of());
		second = ServiceInstance.start(database.database(), Map.of());
	}

	@AfterAll
	static void stop() {
		for (AutoCloseable closeable : new AutoCloseable[] { first, second, database }) {
			try {
				if (closeable != null) {
					closeable.close();
				}
			}
			catch (Exception ex) {
				// the next one is closed all the same
			}
		}
	}

	@Test
	void everyOutageIsAnsweredFastAndLeavesEverythingWhole() throws Exception {
		Credentials partner = new Partners(first.client()).onboard("loadtest");
		Writers writers = new Writers(partner.apiKey(), 8);
		writers.start();
		List<Long> recoveries = new ArrayList<>();
		try {
			Thread.sleep(1000);
			for (long outage : OUTAGES_MS) {
				database.stop();
				Thread.sleep(outage);
				database.start();
				long back = System.nanoTime();
				assertThat(eventually(Duration.ofSeconds(10), () -> writers.lastServed.get() > back))
					.as("writes are served again after an outage of %d ms", outage)
					.isTrue();
				recoveries.add(Duration.ofNanos(writers.lastServed.get() - back).toMillis());
				Thread.sleep(1500);
			}
		}
		finally {
			writers.stop();
		}

		assertThat(writers.slowest.get()).as("the slowest answer (ms)").isLessThan(ANSWER_WITHIN.toMillis());
		assertThat(writers.unexpected).as("answers other than 201, 409 and 503 with Retry-After").isEmpty();
		assertThat(writers.refused.get()).as("503s: the outages were met").isPositive();
		assertThat(recoveries).as("ms from each return of the database to the next write it answers")
			.allMatch((ms) -> ms <= 2000);
		writers.assertEveryAcknowledgedWriteStoredOnce(new HealthApi(second.client()));
		everyRouteWorksAndAccessChangesReachTheOtherInstance();
	}

	private void everyRouteWorksAndAccessChangesReachTheOtherInstance() {
		for (ServiceInstance instance : List.of(first, second)) {
			assertThat(eventually(Duration.ofSeconds(10), () -> ready(instance))).as("readiness UP again").isTrue();
		}
		Credentials partner = new Partners(first.client()).onboard();
		HealthApi here = new HealthApi(first.client());
		HealthApi there = new HealthApi(second.client());
		String user = "after-" + UUID.randomUUID();
		here.create(HealthApi.METRICS, partner.apiKey(),
				"{\"user_id\": \"" + user + "\", \"metrics\": {\"weight\": 70}}");
		there.create(HealthApi.ASSESSMENTS, partner.apiKey(),
				"{\"user_id\": \"" + user + "\", \"responses\": {\"sleep\": 7}}");
		assertThat(there.allPages(partner.apiKey(), HealthApi.METRICS + "?user_id={u}", user)).hasSize(1);
		assertThat(here.allPages(partner.apiKey(), HealthApi.ASSESSMENTS + "?user_id={u}", user)).hasSize(1);

		Credentials spare = new Partners(first.client()).issueKey(partner.partnerId(), Map.of());
		assertThat(me(second, partner.apiKey())).isEqualTo(200);
		Partners.admin(
				first.client().delete().uri("/admin/v1/partners/{id}/keys/{key}", partner.partnerId(), partner.keyId()))
			.exchange()
			.expectStatus()
			.isNoContent();
		assertThat(eventually(Duration.ofSeconds(2), () -> me(second, partner.apiKey()) == 401))
			.as("the key revoked on the first instance is refused by the second")
			.isTrue();
		assertThat(me(second, spare.apiKey())).isEqualTo(200);
		new Partners(second.client()).patch(partner.partnerId(), Map.of("status", "suspended"));
		assertThat(eventually(Duration.ofSeconds(2), () -> me(first, spare.apiKey()) == 403))
			.as("the partner suspended on the second instance is refused by the first")
			.isTrue();
	}

	private static int me(ServiceInstance instance, String apiKey) {
		return Partners.meStatus(instance.client(), apiKey);
	}

	private static boolean ready(ServiceInstance instance) {
		return instance.client()
			.get()
			.uri("/actuator/health/readiness")
			.exchange()
			.returnResult(String.class)
			.getStatus()
			.value() == 200;
	}

	/**
	 * Writers that post metrics records, each with its own {@code Idempotency-Key}, to
	 * both instances in turn, and post the same request again (same key, same body) on a
	 * {@code 503}, a {@code 409} (the first attempt still in progress) or no answer.
	 */
	private static final class Writers {

		private final String apiKey;

		private final int count;

		private final AtomicBoolean stopping = new AtomicBoolean();

		private final List<Thread> threads = new ArrayList<>();

		/** Idempotency key to the id of the record acknowledged for it. */
		private final Map<String, String> acknowledged = new ConcurrentHashMap<>();

		private final List<String> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();

		private final AtomicLong slowest = new AtomicLong();

		private final AtomicLong refused = new AtomicLong();

		/**
		 * When a write was last answered by the database: created, or its key still held.
		 */
		private final AtomicLong lastServed = new AtomicLong();

		Writers(String apiKey, int count) {
			this.apiKey = apiKey;
			this.count = count;
		}

		void start() {
			for (int n = 0; n < this.count; n++) {
				int writer = n;
				Thread thread = new Thread(() -> write(writer), "writer-" + n);
				thread.start();
				this.threads.add(thread);
			}
		}

		void stop() throws InterruptedException {
			this.stopping.set(true);
			for (Thread thread : this.threads) {
				thread.join(30_000);
			}
		}

		private void write(int writer) {
			List<HealthApi> instances = List.of(api(first), api(second));
			for (int i = 0; !this.stopping.get(); i++) {
				String key = writer + "-" + i;
				String body = "{\"user_id\": \"writer-" + writer + "\", \"metrics\": {\"steps\": " + i + "}}";
				for (int attempt = 0; !this.acknowledged.containsKey(key); attempt++) {
					HealthApi api = instances.get((i + attempt) % 2);
					long started = System.nanoTime();
					EntityExchangeResult<Map<String, Object>> answer;
					try {
						answer = api.post(HealthApi.METRICS, this.apiKey, body, "Idempotency-Key", key)
							.expectBody(HealthApi.MAP)
							.returnResult();
					}
					catch (RuntimeException ex) {
						this.unexpected.add("no answer: " + ex);
						this.slowest.accumulateAndGet(Duration.ofNanos(System.nanoTime() - started).toMillis(),
								Math::max);
						continue;
					}
					this.slowest.accumulateAndGet(Duration.ofNanos(System.nanoTime() - started).toMillis(), Math::max);
					int status = answer.getStatus().value();
					if (status == 201) {
						this.acknowledged.put(key, (String) answer.getResponseBody().get("id"));
						this.lastServed.set(System.nanoTime());
						continue;
					}
					if (status == 503 && answer.getResponseHeaders().getFirst("Retry-After") != null) {
						this.refused.incrementAndGet();
					}
					else if (status == 409) {
						this.lastServed.set(System.nanoTime());
					}
					else {
						this.unexpected.add(status + " " + answer.getResponseBody());
					}
					pause();
				}
			}
		}

		private static HealthApi api(ServiceInstance instance) {
			return new HealthApi(instance.client().mutate().responseTimeout(ANSWER_WITHIN).build());
		}

		private static void pause() {
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		void assertEveryAcknowledgedWriteStoredOnce(HealthApi api) {
			for (int n = 0; n < this.count; n++) {
				String prefix = n + "-";
				Set<String> acked = this.acknowledged.entrySet()
					.stream()
					.filter((entry) -> entry.getKey().startsWith(prefix))
					.map(Map.Entry::getValue)
					.collect(Collectors.toSet());
				// pages of 200: a faster machine acknowledges more writes, and a page of
				// 1,000 records outgrew the test client's 256 KB buffer
				List<String> stored = api
					.allPages(this.apiKey, HealthApi.METRICS + "?user_id={u}&limit=200", "writer-" + n)
					.stream()
					.map((record) -> (String) record.get("id"))
					.toList();
				assertThat(acked).as("writer %d wrote", n).isNotEmpty();
				assertThat(stored).as("writer %d's records: each acknowledged one, once", n)
					.containsExactlyInAnyOrderElementsOf(acked);
			}
		}

	}

}
