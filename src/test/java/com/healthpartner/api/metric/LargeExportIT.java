package com.healthpartner.api.metric;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.SeparateJvmInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user with 100,000 metrics records (about 100 MB of NDJSON) is exported whole by a
 * service in its own JVM whose heap is smaller than the export and that stops at its
 * first {@code OutOfMemoryError}: the export can only complete if rows stream from the
 * database to the client without being gathered (a version that collected the rows first
 * fails this test).
 */
class LargeExportIT extends IntegrationTest {

	private static final int RECORDS = 100_000;

	private static final int BATCH = 10_000;

	/**
	 * Below the size of the export: 256 MB would still hold 100 MB of gathered rows, so
	 * only a heap this small tells streaming from gathering.
	 */
	private static final String HEAP = "128m";

	@Autowired
	private DatabaseClient db;

	@Test
	void oneHundredThousandRecordsStreamThroughABoundedHeap() throws IOException, InterruptedException {
		Credentials partner = this.partners.onboard("loadtest");
		String user = "bulk-" + UUID.randomUUID();
		try (SeparateJvmInstance service = SeparateJvmInstance.launch("large-export-instance",
				List.of("-Xmx" + HEAP, "-XX:+ExitOnOutOfMemoryError"))) {
			insertRecords(partner, user);
			service.awaitReady();
			HttpRequest export = HttpRequest
				.newBuilder(URI.create(service.baseUrl() + "/api/v1/health/metrics?user_id=" + user))
				.header("x-api-key", partner.apiKey())
				.header("Accept", "application/x-ndjson")
				.timeout(Duration.ofSeconds(120))
				.build();
			HttpResponse<InputStream> response = HttpClient.newHttpClient()
				.send(export, HttpResponse.BodyHandlers.ofInputStream());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/x-ndjson");
			Export counted = count(response.body());
			assertThat(counted.lines()).isEqualTo(RECORDS);
			assertThat(counted.bytes()).isGreaterThan(90_000_000L);
			assertThat(counted.first()).contains("\"user_id\":\"" + user + "\"")
				.contains("\"recorded_at\":\"2025-01-01T00:00:00.000Z\"");
			assertThat(counted.last()).contains("\"recorded_at\":\"2025-01-02T03:46:39.000Z\"");
			assertThat(service.isAlive()).isTrue();
		}
	}

	/**
	 * Rows go in with one statement: the API is not what this test is about. Each holds
	 * about a kilobyte of metrics.
	 */
	private void insertRecords(Credentials partner, String user) {
		String padding = IntStream.range(0, 40)
			.mapToObj((i) -> String.format("\"extra_metric_%02d\": %d.123456789", i, 100_000 + i))
			.collect(Collectors.joining(", "));
		// in batches, each well within the statement timeout
		Flux.range(0, RECORDS / BATCH)
			.concatMap((batch) -> this.db
				.sql("""
						insert into metric_records (id, partner_id, user_id, metrics, recorded_at, created_at, view)
						select *, metric_view(id, user_id, null, null, metrics, api_time(recorded_at), api_time(created_at), api_time(created_at))
						from (select gen_random_uuid() as id, cast(:partnerId as uuid) as partner_id,
						             cast(:userId as text) as user_id,
						             cast('{"weight": ' || (50 + i % 50) || ', "steps": ' || i || ', ' || :padding || '}' as jsonb)
						                 as metrics,
						             timestamptz '2025-01-01 00:00:00Z' + i * interval '1 second' as recorded_at,
						             now() as created_at
						      from generate_series(:first, :last) as i) r
						""")
				.bind("partnerId", UUID.fromString(partner.partnerId()))
				.bind("userId", user)
				.bind("padding", padding)
				.bind("first", batch * BATCH)
				.bind("last", batch * BATCH + BATCH - 1)
				.then())
			.then()
			.block(Duration.ofSeconds(120));
	}

	private static Export count(InputStream body) throws IOException {
		try (body) {
			byte[] buffer = new byte[64 * 1024];
			long lines = 0;
			long bytes = 0;
			StringBuilder first = new StringBuilder();
			StringBuilder current = new StringBuilder();
			String last = "";
			int read;
			while ((read = body.read(buffer)) != -1) {
				bytes += read;
				int start = 0;
				for (int i = 0; i < read; i++) {
					if (buffer[i] == '\n') {
						current.append(new String(buffer, start, i - start, StandardCharsets.UTF_8));
						if (lines == 0) {
							first.append(current);
						}
						last = current.toString();
						current.setLength(0);
						lines++;
						start = i + 1;
					}
				}
				current.append(new String(buffer, start, read - start, StandardCharsets.UTF_8));
			}
			assertThat(current).as("text after the last line feed").isEmpty();
			return new Export(lines, bytes, first.toString(), last);
		}
	}

	private record Export(long lines, long bytes, String first, String last) {
	}

}
