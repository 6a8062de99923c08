package com.healthpartner.api.metric;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.pool.PoolMetrics;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;
import com.healthpartner.api.support.StalledExport;
import com.healthpartner.api.system.EventLoopPools;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * NDJSON exports hold a connection of the shared database pool for as long as their
 * client reads: a partner runs at most two at once, a client that goes away gives its
 * slot and connection back at once, and one that stops reading but keeps its connection
 * open loses its export after the idle timeout instead of holding the connection for the
 * export's whole time limit.
 */
class ConcurrentExportsTest extends IntegrationTest {

	/**
	 * About 20 MB of NDJSON: far more than the socket buffers between the service and a
	 * client that does not read, so such an export stays open.
	 */
	private static final int RECORDS = 20_000;

	@Autowired
	private DatabaseClient db;

	@Autowired
	private EventLoopPools pool;

	@Autowired
	private MeterRegistry meters;

	@Test
	void aThirdExportOfOnePartnerIsRefusedAndACancelledExportGivesItsSlotAndConnectionBack() throws IOException {
		HealthApi api = new HealthApi(this.client);
		Credentials partner = this.partners.onboard("loadtest");
		Credentials other = this.partners.onboard("loadtest");
		String large = "bulk-" + UUID.randomUUID();
		insertRecords(this.db, partner, large);
		String small = "member-" + UUID.randomUUID();
		api.create(HealthApi.METRICS, partner.apiKey(),
				"{\"user_id\": \"" + small + "\", \"metrics\": {\"steps\": 1}}");
		api.create(HealthApi.METRICS, other.apiKey(), "{\"user_id\": \"" + small + "\", \"metrics\": {\"steps\": 2}}");
		int idle = idle(this.pool);
		String export = HealthApi.METRICS + "?user_id=" + large;

		try (StalledExport first = StalledExport.open(this.port, partner.apiKey(), export);
				StalledExport second = StalledExport.open(this.port, partner.apiKey(), export)) {
			assertThat(first.head()).startsWith("HTTP/1.1 200").contains("application/x-ndjson");
			assertThat(second.head()).startsWith("HTTP/1.1 200");

			this.client.get()
				.uri(HealthApi.METRICS + "?user_id={u}", small)
				.header("x-api-key", partner.apiKey())
				.accept(MediaType.APPLICATION_NDJSON)
				.exchange()
				.expectStatus()
				.isEqualTo(429)
				.expectHeader()
				.valueEquals(HttpHeaders.RETRY_AFTER, "10")
				.expectHeader()
				.valueEquals("X-RateLimit-Limit", "1000000")
				.expectHeader()
				.exists("RateLimit")
				.expectBody()
				.jsonPath("$.code")
				.isEqualTo("rate_limited")
				.jsonPath("$.detail")
				.value(String.class, (detail) -> assertThat(detail).contains("2 NDJSON exports")
					.contains("concurrent-export limit"));
			assertThat(running(this.meters)).isEqualTo(2);
			assertThat(acquired(this.pool)).isGreaterThanOrEqualTo(idle + 2);
			// pages are not exports, and another partner has slots of its own
			assertThat(api.allPages(partner.apiKey(), HealthApi.METRICS + "?user_id={u}", small)).hasSize(1);
			assertThat(api.ndjson(other.apiKey(), HealthApi.METRICS + "?user_id={u}", small)).hasSize(1);

			first.disconnect();
			awaits(() -> running(this.meters) == 1 && acquired(this.pool) <= idle + 1);
			assertThat(api.ndjson(partner.apiKey(), HealthApi.METRICS + "?user_id={u}", small)).hasSize(1);
		}
		awaits(() -> running(this.meters) == 0 && acquired(this.pool) <= idle);
	}

	@Test
	void anExportWhoseClientStopsReadingEndsAfterTheIdleTimeoutAndGivesItsConnectionBack() throws IOException {
		try (ServiceInstance service = ServiceInstance.start(Map.of("app.database.export-idle-timeout", "1s"))) {
			ApplicationContext context = service.context();
			EventLoopPools pool = context.getBean(EventLoopPools.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
			Credentials partner = new Partners(service.client()).onboard("loadtest");
			String large = "bulk-" + UUID.randomUUID();
			insertRecords(this.db, partner, large);
			int idle = idle(pool);

			try (StalledExport stalled = StalledExport.open(port, partner.apiKey(),
					HealthApi.METRICS + "?user_id=" + large)) {
				assertThat(stalled.head()).startsWith("HTTP/1.1 200");
				awaits(() -> running(meters) == 0 && acquired(pool) <= idle);
				assertThat(stalled.readRestIsComplete()).as("the export ended without its last chunk").isFalse();
			}
			assertThat(
					new HealthApi(service.client()).ndjson(partner.apiKey(),
							HealthApi.METRICS + "?user_id={u}&"
									+ "start_date=2025-01-01T00:00:00Z&end_date=2025-01-01T00:00:02Z",
							large))
				.hasSize(3);
		}
	}

	/**
	 * Connections in use when no request is: the least of a few readings, as the
	 * service's background writers take one now and then for a moment.
	 */
	private static int idle(EventLoopPools pool) {
		return Flux.interval(Duration.ZERO, Duration.ofMillis(20))
			.take(10)
			.map((tick) -> acquired(pool))
			.reduce(Math::min)
			.block(Duration.ofSeconds(5));
	}

	private static int acquired(EventLoopPools pool) {
		return pool.total(PoolMetrics::acquiredSize);
	}

	private static double running(MeterRegistry meters) {
		return meters.get("api.exports.running").gauge().value();
	}

	/** Waits, polling, until {@code condition} holds; fails after 15 seconds. */
	private static void awaits(Supplier<Boolean> condition) {
		assertThat(eventually(Duration.ofSeconds(15), condition)).as("condition reached within 15 s").isTrue();
	}

	/** Rows of about a kilobyte each go in with one statement. */
	private static void insertRecords(DatabaseClient db, Credentials partner, String user) {
		String padding = IntStream.range(0, 40)
			.mapToObj((i) -> String.format("\"extra_metric_%02d\": %d.123456789", i, 100_000 + i))
			.collect(Collectors.joining(", "));
		db.sql("""
				insert into metric_records (id, partner_id, user_id, metrics, recorded_at, created_at, view)
				select *, metric_view(id, user_id, null, null, metrics, api_time(recorded_at), api_time(created_at), api_time(created_at))
				from (select gen_random_uuid() as id, cast(:partnerId as uuid) as partner_id,
				             cast(:userId as text) as user_id,
				             cast('{"steps": ' || i || ', ' || :padding || '}' as jsonb) as metrics,
				             timestamptz '2025-01-01 00:00:00Z' + i * interval '1 second' as recorded_at,
				             now() as created_at
				      from generate_series(0, :last) as i) r
				""")
			.bind("partnerId", UUID.fromString(partner.partnerId()))
			.bind("userId", user)
			.bind("padding", padding)
			.bind("last", RECORDS - 1)
			.then()
			.block(Duration.ofSeconds(30));
	}

}
