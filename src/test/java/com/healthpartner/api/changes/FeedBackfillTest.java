package com.healthpartner.api.changes;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.Test;

import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.support.TestInfrastructure;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The migration that introduced the change feed gives every record stored before it a
 * {@code created} change with its record (as a GET shows it, stored in that form since
 * V31) and creation time (in the order they were created, metrics first, then
 * assessments), so that the feed covers them too.
 */
class FeedBackfillTest {

	@Test
	void recordsStoredBeforeTheFeedGetTheirCreatedChanges() throws SQLException {
		TestInfrastructure.Database shared = TestInfrastructure.postgres();
		String name = "backfill_" + UUID.randomUUID().toString().replace("-", "");
		try (Connection admin = DriverManager.getConnection(shared.jdbcUrl(), shared.username(), shared.password());
				Statement create = admin.createStatement()) {
			create.execute("create database " + name);
		}
		String url = shared.jdbcUrl().substring(0, shared.jdbcUrl().lastIndexOf('/') + 1) + name;
		try {
			flyway(url, shared).target("20").load().migrate();
			try (Connection db = DriverManager.getConnection(url, shared.username(), shared.password());
					Statement sql = db.createStatement()) {
				sql.execute(
						"""
								insert into registrations values ('00000000-0000-0000-0000-000000000001', 'a@b.example', 'A',
								    'approved', null, null, now(), now());
								insert into partners values ('00000000-0000-0000-0000-000000000002',
								    '00000000-0000-0000-0000-000000000001', 'A', 'a@b.example', 'default', 'active', '{}', false, now());
								insert into metric_records select gen_random_uuid(), '00000000-0000-0000-0000-000000000002', 'u1',
								    '{"weight": 70}', now(), timestamp '2026-01-01' + make_interval(secs => 10 - i)
								from generate_series(1, 5) i;
								insert into assessments select gen_random_uuid(), '00000000-0000-0000-0000-000000000002', 'u1',
								    '{"q": 1}', timestamp '2026-01-01' + make_interval(secs => 20 - i) from generate_series(1, 3) i;
								""");
			}
			flyway(url, shared).load().migrate();
			try (Connection db = DriverManager.getConnection(url, shared.username(), shared.password());
					Statement sql = db.createStatement();
					ResultSet changes = sql.executeQuery(
							"""
									select c.kind, c.resource, c.item, c.changed_at = r.created_at as same_time, r.id,
									       r.recorded_at, r.created_at
									from changes c join (select id, recorded_at, created_at from metric_records
									                     union all select id, null, created_at from assessments) r on r.id = c.record_id
									order by c.txid, c.seq
									""")) {
				List<String> listed = new ArrayList<>();
				while (changes.next()) {
					assertThat(changes.getBoolean("same_time")).isTrue();
					String created = Timestamps.format(changes.getTimestamp("created_at").toInstant());
					String content = (changes.getTimestamp("recorded_at") != null)
							? "\"metrics\":{\"weight\": 70},\"recorded_at\":\""
									+ Timestamps.format(changes.getTimestamp("recorded_at").toInstant()) + "\","
							: "\"responses\":{\"q\": 1},";
					// the change as the feed shows it after its change_id, with the
					// record as a GET of
					// it shows it, byte for byte
					String id = changes.getString("id");
					assertThat(changes.getString("item")).isEqualTo("\"kind\":\"created\",\"resource\":\""
							+ changes.getString("resource") + "\",\"id\":\"" + id
							+ "\",\"user_id\":\"u1\",\"client_record_id\":null,\"changed_at\":\"" + created
							+ "\",\"record\":{\"id\":\"" + id
							+ "\",\"user_id\":\"u1\",\"client_record_id\":null,\"client_record_version\":null,"
							+ content + "\"created_at\":\"" + created + "\",\"updated_at\":\"" + created + "\"}}");
					listed.add(changes.getString("kind") + " " + changes.getString("resource"));
				}
				assertThat(listed).hasSize(8)
					.startsWith("created metrics")
					.endsWith("created assessments")
					.allMatch((change) -> change.startsWith("created "));
			}
			// V32: each record's stored view is the record its created change shows
			try (Connection db = DriverManager.getConnection(url, shared.username(), shared.password());
					Statement sql = db.createStatement();
					ResultSet views = sql.executeQuery(
							"""
									select count(*) as records, count(*) filter (where right(c.item, length(r.view) + 1) = r.view || '}')
									       as matching
									from changes c join (select id, view from metric_records
									                     union all select id, view from assessments) r on r.id = c.record_id
									""")) {
				assertThat(views.next()).isTrue();
				assertThat(views.getInt("records")).isEqualTo(8);
				assertThat(views.getInt("matching")).isEqualTo(8);
			}
		}
		finally {
			try (Connection admin = DriverManager.getConnection(shared.jdbcUrl(), shared.username(), shared.password());
					Statement drop = admin.createStatement()) {
				drop.execute("drop database if exists " + name);
			}
		}
	}

	/**
	 * Flyway on {@code url}, as the service runs it: with a transactional lock, V41's
	 * concurrent build waits forever on Flyway's own transaction.
	 */
	private static FluentConfiguration flyway(String url, TestInfrastructure.Database shared) {
		return Flyway.configure()
			.dataSource(url, shared.username(), shared.password())
			.locations("classpath:db/migration")
			.configuration(Map.of("flyway.postgresql.transactional.lock", "false"));
	}

}
