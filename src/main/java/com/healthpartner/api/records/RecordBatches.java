package com.healthpartner.api.records;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Principals;
import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.idempotency.RecordOutcome;
import com.healthpartner.api.json.JsonFields;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldError;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.records.RecordStore.Written;
import com.healthpartner.api.records.RecordWrites.Outcome;
import com.healthpartner.api.system.BatchProperties;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/**
 * {@code POST /api/v1/health/<resource>/batch}: many records of one kind in one request
 * (docs/api.md, Batches). Each item is read by the kind's reader and stored by the same
 * upsert as the single POST, with its change and audit event; a bad item is answered in
 * its place and never stops the others. The items are applied in array order: runs of
 * items with different client record ids go in one statement each, and an item whose
 * client record id is already in the run starts the next one, so two items of one id
 * resolve as if posted one after the other. The whole batch is one transaction.
 */
final class RecordBatches {

	static final String RECORDS = "records";

	private static final Set<String> FIELDS = Set.of(RECORDS);

	private final RecordKind kind;

	private final String path;

	private final String endpoint;

	private final RecordRepository records;

	private final RecordHandler.Parts parts;

	private final int maxRecords;

	RecordBatches(RecordRepository records, RecordHandler.Parts parts, BatchProperties limits) {
		this.kind = records.kind();
		this.path = this.kind.path();
		this.endpoint = this.path + "/batch";
		this.records = records;
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
			List<Item> read = new ArrayList<>(items.size());
			for (int i = 0; i < items.size(); i++) {
				read.add(read(i, items.get(i), now));
			}
			AuditActor actor = AuditActor.of(request, now);
			return this.parts.creates().batch(partnerId, this.endpoint, key, body, () -> apply(partnerId, read, actor));
		});
	}

	/** One item, read and checked as the single POST reads its body. */
	private Item read(int index, JsonNode node, Instant now) {
		FieldErrors errors = new FieldErrors();
		if (!(node instanceof ObjectNode item)) {
			errors.add("body", "must be a JSON object");
			return new Item(index, null, null, errors.list());
		}
		RecordKind.Posted posted = this.kind.post(item, now, errors, this.parts.mapper());
		if (posted == null) {
			return new Item(index, null, null, errors.list());
		}
		return new Item(index, posted.row(), posted.client(), List.of());
	}

	/** Stores the valid items, run after run, and gives every item its result. */
	private Mono<JsonWritable> apply(UUID partnerId, List<Item> items, AuditActor actor) {
		Result[] results = new Result[items.size()];
		for (Item item : items) {
			if (item.row() == null) {
				results[item.index()] = Result.refused(ProblemType.VALIDATION_FAILED, item.errors());
			}
		}
		return Flux.fromIterable(runs(items))
			.concatMap((run) -> store(partnerId, run, actor, results))
			.then(Mono.fromSupplier(() -> new Results(this.kind, results)));
	}

	/**
	 * The valid items in runs that one statement may write: in order, a run ending before
	 * an item whose client record id it already holds.
	 */
	private static List<List<Item>> runs(List<Item> items) {
		List<List<Item>> runs = new ArrayList<>();
		List<Item> run = new ArrayList<>();
		Set<String> clientIds = new HashSet<>();
		for (Item item : items) {
			if (item.row() == null) {
				continue;
			}
			String clientId = item.row().clientRecordId();
			if (clientId != null && !clientIds.add(clientId)) {
				runs.add(run);
				run = new ArrayList<>();
				clientIds.clear();
				clientIds.add(clientId);
			}
			run.add(item);
		}
		if (!run.isEmpty()) {
			runs.add(run);
		}
		return runs;
	}

	/**
	 * One run in one statement; an item it did not write then goes the single POST's way
	 * ({@link RecordWrites#notWritten}), one after the other, before the next run.
	 */
	private Mono<Void> store(UUID partnerId, List<Item> run, AuditActor actor, Result[] results) {
		List<RecordRow> rows = run.stream().map(Item::row).toList();
		return this.records.upsertTogether(partnerId, rows, actor).flatMap((written) -> {
			List<Item> notWritten = new ArrayList<>();
			for (int i = 0; i < run.size(); i++) {
				Written<RecordRow> one = written.get(i);
				if (one != null) {
					results[run.get(i).index()] = Result.stored(RecordWrites.outcome(one));
				}
				else {
					notWritten.add(run.get(i));
				}
			}
			return Flux.fromIterable(notWritten)
				.concatMap((item) -> RecordWrites.notWritten(this.records, partnerId, item.row(), item.client(), actor)
					.map(Result::stored)
					.onErrorResume(ApiException.class,
							(refused) -> (refused.type() == ProblemType.CONFLICT)
									? Mono.just(Result.refused(ProblemType.CONFLICT,
											List.of(new FieldError(ClientRecord.ID, ClientRecord.TAKEN))))
									: Mono.error(refused))
					.doOnNext((result) -> results[item.index()] = result))
				.then();
		});
	}

	/** An item of the batch: its record, or else its errors. */
	private record Item(int index, RecordRow row, ClientRecord client, List<FieldError> errors) {
	}

	/** What became of one item: stored with an outcome, or refused with a code. */
	private record Result(Outcome<RecordRow> stored, ProblemType refused, List<FieldError> errors) {

		static Result stored(Outcome<RecordRow> outcome) {
			return new Result(outcome, null, List.of());
		}

		static Result refused(ProblemType type, List<FieldError> errors) {
			return new Result(null, type, errors);
		}

	}

	/**
	 * The answer: {@code results}, one per item in order, and the {@code summary} of
	 * their outcomes.
	 */
	private record Results(RecordKind kind, Result[] results) implements JsonWritable {

		@Override
		public void writeJson(StringBuilder out) {
			int created = 0;
			int updated = 0;
			int unchanged = 0;
			int failed = 0;
			out.append("{\"results\":[");
			for (int i = 0; i < this.results.length; i++) {
				Result result = this.results[i];
				out.append((i > 0) ? ",{\"index\":" : "{\"index\":").append(i).append(",\"status\":");
				if (result.stored() != null) {
					RecordOutcome outcome = result.stored().outcome();
					created += (outcome == RecordOutcome.CREATED) ? 1 : 0;
					updated += (outcome == RecordOutcome.UPDATED) ? 1 : 0;
					unchanged += (outcome == RecordOutcome.UNCHANGED) ? 1 : 0;
					out.append(outcome.status().value()).append(",\"outcome\":\"").append(outcome.value());
					out.append("\",\"record\":");
					new RecordView(this.kind, result.stored().row()).writeJson(out);
				}
				else {
					failed++;
					out.append(result.refused().status().value()).append(",\"code\":\"");
					out.append(result.refused().code()).append("\",\"errors\":[");
					for (int e = 0; e < result.errors().size(); e++) {
						FieldError error = result.errors().get(e);
						out.append((e > 0) ? ",{\"field\":" : "{\"field\":");
						JsonText.quote(out, error.field()).append(",\"message\":");
						JsonText.quote(out, error.message()).append('}');
					}
					out.append(']');
				}
				out.append('}');
			}
			out.append("],\"summary\":{\"created\":").append(created).append(",\"updated\":").append(updated);
			out.append(",\"unchanged\":").append(unchanged).append(",\"failed\":").append(failed).append("}}");
		}

	}

}
