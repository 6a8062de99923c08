package com.healthpartner.api.audit;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.r2dbc.spi.Readable;
import io.r2dbc.postgresql.codec.Json;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.KeysetPages;
import com.healthpartner.api.system.Filters;

@Repository
class AuditRepository {

	private final DatabaseClient db;

	AuditRepository(DatabaseClient db) {
		this.db = db;
	}

	/**
	 * One statement for the whole batch; each field travels as one array of its type, in
	 * binary (no id or time is written out as text and parsed again). A batch may be
	 * written again (an insert given up on at its deadline may still have committed):
	 * events already stored are skipped.
	 */
	Mono<Void> insert(List<AuditEvent> events) {
		int size = events.size();
		UUID[] ids = new UUID[size];
		Instant[] ats = new Instant[size];
		UUID[] partners = new UUID[size];
		UUID[] keys = new UUID[size];
		String[] users = new String[size];
		String[] actions = new String[size];
		String[] resources = new String[size];
		Long[] counts = new Long[size];
		String[] requests = new String[size];
		for (int i = 0; i < size; i++) {
			AuditEvent event = events.get(i);
			ids[i] = event.id();
			ats[i] = event.at();
			partners[i] = event.partnerId();
			keys[i] = event.keyId();
			users[i] = event.userId();
			actions[i] = event.action().value();
			resources[i] = event.resource();
			counts[i] = event.recordCount();
			requests[i] = event.requestId();
		}
		return this.db
			.sql("""
					insert into audit_events (id, at, partner_id, key_id, user_id, action, resource, record_count, request_id)
					select * from unnest(cast(:ids as uuid[]), cast(:ats as timestamptz[]), cast(:partners as uuid[]),
					                     cast(:keys as uuid[]), cast(:users as text[]), cast(:actions as text[]),
					                     cast(:resources as text[]), cast(:counts as bigint[]), cast(:requests as text[]))
					on conflict (at, id) do nothing
					""")
			.bind("ids", ids)
			.bind("ats", ats)
			.bind("partners", partners)
			.bind("keys", keys)
			.bind("users", users)
			.bind("actions", actions)
			.bind("resources", resources)
			.bind("counts", counts)
			.bind("requests", requests)
			.then();
	}

	/**
	 * Events in time order, filtered by whatever the administrator gave: the statement
	 * holds only those filters ({@link Filters}), so each combination is an index scan.
	 */
	Flux<AuditEvent> list(AuditQuery query, Cursors.Position after, int limit) {
		Filters filters = new Filters()
			.when(query.partnerId(), "partner_id = :partnerId", "partnerId", query.partnerId())
			.when(query.userId(), "user_id = :userId", "userId", query.userId())
			.when(query.range().from(), "at >= :from", "from", query.range().from())
			.when(query.range().until(), "at < :until", "until", query.range().until());
		return KeysetPages.select(this.db, "audit_events", "at", filters, after, limit).map(AuditRepository::row).all();
	}

	private static String summary(Json json) {
		return (json != null) ? json.asString() : null;
	}

	private static AuditEvent row(Readable row) {
		Long count = row.get("record_count", Long.class);
		return new AuditEvent(row.get("id", UUID.class), row.get("at", Instant.class),
				row.get("partner_id", UUID.class), row.get("key_id", UUID.class), row.get("user_id", String.class),
				AuditEvent.Action.valueOf(row.get("action", String.class).toUpperCase()),
				row.get("resource", String.class), (count != null) ? count : 0, row.get("request_id", String.class),
				summary(row.get("import", Json.class)));
	}

}
