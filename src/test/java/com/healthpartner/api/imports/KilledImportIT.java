package com.healthpartner.api.imports;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
 * The packaged service killed with SIGKILL in the middle of applying an import of 100,000
 * lines (creations, updates of earlier lines' records by client record version, refused
 * lines), then started again on the same database: the import resumes with the chunks it
 * had not committed (two at a time) and completes with exact counts, every record stored
 * once at its last version, one change per applied line, one error per refused line. A
 * claim lease of 3 s (30 s by default) lets the second instance take over quickly; chunks
 * of 1,000 lines (5,000 by default) make the kill land between many. The test JVM's own
 * instance (the full-application tests' context, when one ran before) works on the same
 * database with a clock other tests have moved ahead, so it may take the import over from
 * either child, cancelling the chunks under way there: the counts must hold then too. The
 * children's output is in {@code target/killed-import-*.log}.
 */
class KilledImportIT {

	private static final Pattern COUNT = Pattern.compile("\"(\\w+)\":(\\d+)");

	private static final int LINES = 100_000;

	private final List<SeparateJvmInstance> children = new ArrayList<>();

	@AfterEach
	void killChildren() throws InterruptedException {
		for (SeparateJvmInstance child : this.children) {
			child.kill();
		}
	}

	@Test
	void anImportKilledMidwayResumesAndAppliesEveryLineExactlyOnce() throws Exception {
		int port = TestInfrastructure.freePort();
		SeparateJvmInstance first = start("killed-import-1", port);
		Credentials partner = new Partners(
				WebTestClient.bindToServer().baseUrl(first.baseUrl()).responseTimeout(Duration.ofSeconds(60)).build())
			.onboard("loadtest");
		// line n: refused if n is a multiple of 1000; version 2 of line n - 1's record if
		// n ends in 5; otherwise a record of its own (client id c-n, version 1)
		StringBuilder body = new StringBuilder(LINES * 100);
		for (int n = 1; n <= LINES; n++) {
			String user = "killed-import-" + (n % 500);
			if (n % 1000 == 0) {
				body.append("{\"user_id\":\"").append(user).append("\",\"metrics\":{\"weight\":7000}}\n");
			}
			else if (n % 10 == 5) {
				body.append("{\"user_id\":\"")
					.append("killed-import-" + ((n - 1) % 500))
					.append("\",\"client_record_id\":\"c-")
					.append(n - 1)
					.append("\",\"client_record_version\":2,\"metrics\":{\"weight\":80}}\n");
			}
			else {
				body.append("{\"user_id\":\"")
					.append(user)
					.append("\",\"client_record_id\":\"c-")
					.append(n)
					.append("\",\"client_record_version\":1,\"metrics\":{\"weight\":70}}\n");
			}
		}
		HttpClient http = HttpClient.newHttpClient();
		HttpResponse<String> accepted = http
			.send(HttpRequest.newBuilder(URI.create(first.baseUrl() + "/api/v1/health/imports?kind=metrics"))
				.header("x-api-key", partner.apiKey())
				.header("Content-Type", "application/x-ndjson")
				.POST(HttpRequest.BodyPublishers.ofString(body.toString()))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		String id = accepted.body().replaceAll(".*\"import_id\":\"([0-9a-f-]{36})\".*", "$1");
		assertThat(counts(accepted.body())).containsEntry("lines", (long) LINES);

		DatabaseClient db = TestInfrastructure.databaseClient();
		// killed once a few chunks are committed, long before the last
		long processedAtKill = Eventually.eventually(Duration.ofSeconds(120), () -> processed(db, id),
				(processed) -> processed >= 5000);
		first.kill();
		long committed = processed(db, id);
		assertThat(committed).as("lines committed when the service was killed").isBetween(5000L, LINES - 1L);
		assertThat(processedAtKill).isLessThanOrEqualTo(committed);

		SeparateJvmInstance second = start("killed-import-2", port);
		Map<String, Long> done = Eventually.eventually(Duration.ofSeconds(180), () -> {
			try {
				HttpResponse<String> view = http
					.send(HttpRequest.newBuilder(URI.create(second.baseUrl() + "/api/v1/health/imports/" + id))
						.header("x-api-key", partner.apiKey())
						.build(), HttpResponse.BodyHandlers.ofString());
				return view.body().contains("\"status\":\"completed\"") ? counts(view.body()) : Map.<String, Long>of();
			}
			catch (Exception ex) {
				return Map.<String, Long>of();
			}
		}, (counts) -> !counts.isEmpty());
		assertThat(done).as("the import completed on the second instance")
			.containsEntry("lines", (long) LINES)
			.containsEntry("processed", (long) LINES)
			.containsEntry("created", 89_900L)
			.containsEntry("updated", 10_000L)
			.containsEntry("unchanged", 0L)
			.containsEntry("failed", 100L);

		UUID partnerId = UUID.fromString(partner.partnerId());
		assertThat(scalar(db, "select count(*) from metric_records where partner_id = :p", partnerId)).as("records")
			.isEqualTo(89_900L);
		assertThat(scalar(db, "select count(distinct client_record_id) from metric_records where partner_id = :p",
				partnerId))
			.as("records with distinct client ids")
			.isEqualTo(89_900L);
		assertThat(scalar(db,
				"select count(*) from metric_records where partner_id = :p and client_record_version = 2 "
						+ "and metrics = '{\"weight\": 80}'::jsonb",
				partnerId))
			.as("records at their second version")
			.isEqualTo(10_000L);
		assertThat(scalar(db, "select count(*) from changes where partner_id = :p and kind = 'created'", partnerId))
			.as("created changes")
			.isEqualTo(89_900L);
		assertThat(scalar(db, "select count(*) from changes where partner_id = :p and kind = 'updated'", partnerId))
			.as("updated changes")
			.isEqualTo(10_000L);
		assertThat(scalar(db, "select count(*) from import_errors where import_id = :p " + "and line % 1000 = 0",
				UUID.fromString(id)))
			.as("refused lines, each once")
			.isEqualTo(100L);
		assertThat(
				scalar(db, "select count(*) from audit_events where partner_id = :p and action = 'import'", partnerId))
			.as("the import's audit events: stored, completed")
			.isEqualTo(2L);
	}

	private static Map<String, Long> counts(String view) {
		Map<String, Long> counts = new java.util.HashMap<>();
		Matcher matcher = COUNT.matcher(view);
		while (matcher.find()) {
			counts.put(matcher.group(1), Long.parseLong(matcher.group(2)));
		}
		return counts;
	}

	private static long processed(DatabaseClient db, String id) {
		return scalar(db, "select processed from imports where id = :p", UUID.fromString(id));
	}

	private static long scalar(DatabaseClient db, String sql, UUID parameter) {
		return db.sql(sql)
			.bind("p", parameter)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block(Duration.ofSeconds(30));
	}

	private SeparateJvmInstance start(String name, int port) {
		SeparateJvmInstance child = SeparateJvmInstance.launchJar(name, port,
				List.of("-Xmx384m", "-Dapp.import.claim-lease=3s", "-Dapp.import.chunk-lines=1000"));
		this.children.add(child);
		return child.awaitReady();
	}

}
