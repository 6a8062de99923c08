package com.healthpartner.api.records;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.text.JsonWritable;

/**
 * The upserts of the records of one request (a batch's items, an import's chunk), whose
 * client record ids all differ and which were all received at one time, in one statement
 * of their own on the caller's transaction ({@link RecordStatements#upsertTogether}):
 * each written as the single POST writes it, and given back as the database stored its
 * view.
 */
final class TogetherWrites {

	private final DatabaseClient db;

	private final String sql;

	private final boolean dated;

	TogetherWrites(DatabaseClient db, RecordKind kind) {
		this.db = db;
		this.sql = RecordStatements.upsertTogether(kind);
		this.dated = kind.dated();
	}

	/**
	 * Writes {@code rows} of one partner: the stored record of each, in the order of
	 * {@code rows}, null where the upsert wrote nothing.
	 */
	Mono<List<Shown>> write(UUID partnerId, List<RecordRow> rows, AuditActor actor) {
		int size = rows.size();
		Instant createdAt = rows.get(0).createdAt();
		UUID[] ids = new UUID[size];
		String[] userIds = new String[size];
		String[] clientIds = new String[size];
		Long[] versions = new Long[size];
		String[] contents = new String[size];
		UUID[] auditIds = new UUID[size];
		long auditAt = actor.at().toEpochMilli();
		for (int i = 0; i < size; i++) {
			RecordRow row = rows.get(i);
			if (!row.createdAt().equals(createdAt)) {
				throw new IllegalArgumentException("Records written together were received at one time");
			}
			ids[i] = row.id();
			userIds[i] = row.userId();
			clientIds[i] = row.clientRecordId();
			versions[i] = row.clientRecordVersion();
			contents[i] = row.content();
			auditIds[i] = Ids.ordered(auditAt);
		}
		GenericExecuteSpec spec = this.db.sql(this.sql)
			.bind("ids", ids)
			.bind("userIds", userIds)
			.bind("clientRecordIds", clientIds)
			.bind("clientRecordVersions", versions)
			.bind("contents", contents)
			.bind("partnerId", partnerId)
			.bind("createdAt", createdAt)
			.bind("createdText", Timestamps.format(createdAt))
			.bind("auditIds", auditIds)
			.bind("auditAt", actor.at())
			.bind("keyId", actor.keyId())
			.bind("requestId", actor.requestId());
		if (this.dated) {
			Instant[] recordedAts = new Instant[size];
			String[] recordedAtTexts = new String[size];
			for (int i = 0; i < size; i++) {
				recordedAts[i] = rows.get(i).recordedAt();
				recordedAtTexts[i] = Timestamps.format(recordedAts[i]);
			}
			spec = spec.bind("recordedAts", recordedAts).bind("recordedAtTexts", recordedAtTexts);
		}
		return spec
			.map((row) -> new Returned(key(row.get(0, UUID.class), row.get(1, String.class)),
					new Shown(Boolean.TRUE.equals(row.get(3, Boolean.class)), row.get(2, String.class))))
			.all()
			.collectList()
			.map((returned) -> {
				Map<Object, Shown> byKey = new HashMap<>(returned.size() * 2);
				for (Returned one : returned) {
					byKey.put(one.key(), one.shown());
				}
				List<Shown> shown = new ArrayList<>(size);
				for (RecordRow row : rows) {
					shown.add(byKey.get(key(row.id(), row.clientRecordId())));
				}
				return shown;
			});
	}

	/**
	 * What tells a written record's input: its client record id when it has one (an
	 * update keeps the stored record's id), else its id.
	 */
	private static Object key(UUID id, String clientRecordId) {
		return (clientRecordId != null) ? clientRecordId : id;
	}

	/** A written record: inserted, or else updated; and its view as stored. */
	record Shown(boolean inserted, String view) implements JsonWritable {

		@Override
		public void writeJson(StringBuilder out) {
			out.append(this.view);
		}

	}

	private record Returned(Object key, Shown shown) {
	}

}
