package com.healthpartner.api.erasure;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.metric.Metrics;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Erasure at scale: a user with 50,000 records is erased batch by batch while the partner
 * keeps writing (the time of one batch and of the writes meanwhile is printed, never
 * asserted), and an erasure left pending by an instance that went away is completed by a
 * newly started instance.
 */
class LargeErasureIT extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Autowired
	private ErasureRepository erasures;

	@Autowired
	private ErasureWorker worker;

	@Test
	void aUserWithFiftyThousandRecordsIsErasedInBatchesWhileOtherWritesGoOn() {
		Credentials partner = this.partners.onboard("loadtest");
		String user = "big-" + UUID.randomUUID();
		insertRecords(partner, user, 50_000);
		HealthApi api = new HealthApi(this.client);

		Map<String, Object> erasure = api.erase(partner.apiKey(), user);
		assertThat(api.page(partner.apiKey(), HealthApi.METRICS + "?user_id={u}&limit=10", user).get("data"))
			.isEqualTo(List.of());
		List<Long> writeMillis = new ArrayList<>();
		Map<String, Object> status;
		boolean advanced = false;
		do {
			long start = System.nanoTime();
			api.create(HealthApi.METRICS, partner.apiKey(),
					"{\"user_id\": \"neighbour-" + user + "\", \"metrics\": {\"weight\": 70}}");
			writeMillis.add((System.nanoTime() - start) / 1_000_000);
			status = api.page(partner.apiKey(), "/api/v1/health/erasures/{id}", erasure.get("erasure_id"));
			if (!advanced && "pending".equals(status.get("status"))
					&& ((Number) status.get("metrics_deleted")).intValue() > 0) {
				// halfway through: completed_at must be read when the erasure completes
				this.clock.advance(Duration.ofMinutes(10));
				advanced = true;
			}
		}
		while (!"completed".equals(status.get("status")) && writeMillis.size() < 5_000);
		assertThat(status).containsEntry("status", "completed").containsEntry("metrics_deleted", 50_000);
		assertThat(advanced).as("the erasure was seen under way").isTrue();
		assertThat(Duration.between(Instant.parse((String) status.get("requested_at")),
				Instant.parse((String) status.get("completed_at"))))
			.isGreaterThanOrEqualTo(Duration.ofMinutes(10));
		assertThat(count("select count(*) as n from metric_records where user_id = :u", user)).isZero();
		List<Long> sorted = writeMillis.stream().sorted().toList();
		System.out.println("Erasure of 50,000 records: " + writeMillis.size() + " writes of a neighbour meanwhile, "
				+ "median " + sorted.get(sorted.size() / 2) + " ms, max " + sorted.get(sorted.size() - 1) + " ms");

		// one batch, timed on its own
		String timed = "timed-" + UUID.randomUUID();
		insertRecords(partner, timed, 5_000);
		ErasureRow row = this.db
			.sql("insert into user_erasures (id, partner_id, user_id, status, cutoff, requested_at) values "
					+ "(:id, cast(:p as uuid), :u, 'completed', pg_snapshot_xmax(pg_current_snapshot()), now())"
					+ " returning id, partner_id, user_id, cutoff::text::bigint as cutoff")
			.bind("id", UUID.randomUUID())
			.bind("p", partner.partnerId())
			.bind("u", timed)
			.map((r) -> new ErasureRow(r.get("id", UUID.class), r.get("partner_id", UUID.class),
					r.get("user_id", String.class), "completed", r.get("cutoff", Long.class), null, null, List.of()))
			.one()
			.block();
		List<Long> batchMillis = new ArrayList<>();
		long deleted;
		do {
			long start = System.nanoTime();
			deleted = this.erasures.deleteRecords(row, Metrics.KIND, 1_000).block(Duration.ofSeconds(30));
			batchMillis.add((System.nanoTime() - start) / 1_000_000);
		}
		while (deleted == 1_000);
		System.out.println("Batches of 1,000 deletions: " + batchMillis + " ms");
	}

	@Test
	void anErasureLeftPendingIsCompletedByANewInstance() {
		Credentials partner = this.partners.onboard("loadtest");
		String user = "left-" + UUID.randomUUID();
		insertRecords(partner, user, 2_000);
		this.worker.stop();
		try {
			UUID id = UUID.randomUUID();
			// as an instance that accepted the erasure and went away before its worker
			// ran
			this.db
				.sql("insert into user_erasures (id, partner_id, user_id, status, cutoff, requested_at) values "
						+ "(:id, cast(:p as uuid), :u, 'pending', pg_snapshot_xmax(pg_current_snapshot()), now())")
				.bind("id", id)
				.bind("p", partner.partnerId())
				.bind("u", user)
				.then()
				.block(Duration.ofSeconds(10));
			HealthApi api = new HealthApi(this.client);
			assertThat(api.allPages(partner.apiKey(), HealthApi.METRICS + "?user_id={u}", user)).isEmpty();
			try (ServiceInstance restarted = ServiceInstance.start(Map.of())) {
				Map<String, Object> status = eventually(
						Duration.ofSeconds(30), () -> new HealthApi(restarted.client()).page(partner.apiKey(),
								"/api/v1/health/erasures/{id}", id),
						(erasure) -> "completed".equals(erasure.get("status")));
				assertThat(status).containsEntry("status", "completed").containsEntry("metrics_deleted", 2_000);
			}
			assertThat(count("select count(*) as n from metric_records where user_id = :u", user)).isZero();
		}
		finally {
			this.worker.start();
		}
	}

	private void insertRecords(Credentials partner, String user, int count) {
		this.db
			.sql("""
					insert into metric_records (id, partner_id, user_id, metrics, recorded_at, created_at, view)
					select *, metric_view(id, user_id, null, null, metrics, api_time(recorded_at), api_time(created_at), api_time(created_at))
					from (select gen_random_uuid() as id, cast(:p as uuid) as partner_id, cast(:u as text) as user_id,
					             '{"steps": 100}'::jsonb as metrics, now() - make_interval(secs => i) as recorded_at,
					             now() as created_at
					      from generate_series(1, :n) i) r
					""")
			.bind("p", partner.partnerId())
			.bind("u", user)
			.bind("n", count)
			.then()
			.block(Duration.ofSeconds(60));
	}

	private long count(String sql, String user) {
		return this.db.sql(sql).bind("u", user).map((row) -> row.get("n", Long.class)).one().block();
	}

}
