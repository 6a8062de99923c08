package com.healthpartner.api.records;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Principals;
import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.idempotency.RecordOutcome;
import com.healthpartner.api.json.JsonFields;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.system.BatchProperties;
import com.healthpartner.api.text.JsonWritable;

/**
 * {@code POST /api/v1/health/<resource>/batch}: many records of one kind in one request
 * (docs/api.md, Batches). Each item is read by the kind's reader and stored as the single
 * POST stores one ({@link RecordStatements#upsertTogether}: the same versioned upsert,
 * change and audit event), and answered with its view as stored; a bad item is answered
 * in its place and never stops the others. The items are applied in array order: runs of
 * items with different client record ids go in one statement each, and an item whose
 * client record id is already in the run starts the next one, so two items of one id
 * resolve as if posted one after the other. The whole batch is one transaction.
 */
final class RecordBatches {

	static final String RECORDS = "records";

	private static final Set<String> FIELDS = Set.of(RECORDS);

	private final String path;

	private final String endpoint;

	private final RecordItems items;

	private final RecordHandler.Parts parts;

	private final int maxRecords;

	RecordBatches(RecordRepository records, RecordHandler.Parts parts, BatchProperties limits) {
		this.path = records.kind().path();
		this.endpoint = this.path + "/batch";
		this.items = new RecordItems(records);
		this.parts = parts;
		this.maxRecords = limits.maxRecords();
	}

	Mono<ServerResponse> create(ServerRequest request) {
		UUID partnerId = Principals.of(request).partnerId();
		return this.parts.bodies().readObject(request).flatMap((body) -> {
			Instant now = this.parts.clock().instant();
			FieldErrors errors = new FieldErrors();
			String key = IdempotentCreates.key(request, errors);
			JsonFields.rejectUnknown(body, FIELDS, errors);
			JsonNode items = body.get(RECORDS);
			if (items == null || !items.isArray() || items.isEmpty() || items.size() > this.maxRecords) {
				errors.add(RECORDS,
						"is required: an array of 1 to " + this.maxRecords + " records, each the body of " + "POST "
								+ this.path + ((items != null && items.isArray() && !items.isEmpty())
										? " (has " + items.size() + ")" : ""));
			}
			errors.throwIfAny();
			List<RecordItems.Item> read = new ArrayList<>(items.size());
			for (int i = 0; i < items.size(); i++) {
				read.add(this.items.read(i, items.get(i), now));
			}
			AuditActor actor = AuditActor.of(request, now);
			return this.parts.creates()
				.batch(partnerId, this.endpoint, key, body,
						() -> this.items.apply(partnerId, read, actor).map((results) -> new Results(results)));
		});
	}

	/**
	 * The answer: {@code results}, one per item in order, and the {@code summary} of
	 * their outcomes.
	 */
	private record Results(RecordItems.Result[] results) implements JsonWritable {

		@Override
		public void writeJson(StringBuilder out) {
			int created = 0;
			int updated = 0;
			int unchanged = 0;
			int failed = 0;
			out.append("{\"results\":[");
			for (int i = 0; i < this.results.length; i++) {
				RecordItems.Result result = this.results[i];
				out.append((i > 0) ? ",{\"index\":" : "{\"index\":").append(i).append(',');
				RecordOutcome outcome = result.outcome();
				if (outcome != null) {
					created += (outcome == RecordOutcome.CREATED) ? 1 : 0;
					updated += (outcome == RecordOutcome.UPDATED) ? 1 : 0;
					unchanged += (outcome == RecordOutcome.UNCHANGED) ? 1 : 0;
					out.append("\"status\":").append(outcome.status().value()).append(",\"outcome\":\"");
					out.append(outcome.value());
					out.append("\",\"record\":");
					result.record().writeJson(out);
				}
				else {
					failed++;
					result.writeRefusal(out);
				}
				out.append('}');
			}
			out.append("],\"summary\":{\"created\":").append(created).append(",\"updated\":").append(updated);
			out.append(",\"unchanged\":").append(unchanged).append(",\"failed\":").append(failed).append("}}");
		}

	}

}
