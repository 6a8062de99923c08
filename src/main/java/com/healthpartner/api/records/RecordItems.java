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

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.idempotency.RecordOutcome;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldError;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.text.JsonWritable;

/**
 * Many records of one kind, each as the single POST would store it (the items of a batch,
 * the lines of an import): each read by the kind's reader, the valid ones stored by the
 * kind's upsert in runs of different client record ids (so that two items of one id
 * resolve as if posted one after the other), an item the upsert did not write then taking
 * the single POST's way. The caller gives the transaction.
 */
public final class RecordItems {

	private final RecordKind kind;

	private final RecordRepository records;

	public RecordItems(RecordRepository records) {
		this.kind = records.kind();
		this.records = records;
	}

	public RecordKind kind() {
		return this.kind;
	}

	/**
	 * One item, read and checked as the single POST reads its body; {@code position} is
	 * its place in the list given to {@link #apply}.
	 */
	public Item read(int position, JsonNode node, Instant now) {
		FieldErrors errors = new FieldErrors();
		if (!(node instanceof ObjectNode item)) {
			errors.add("body", "must be a JSON object");
			return new Item(position, null, null, ProblemType.VALIDATION_FAILED, errors.list());
		}
		RecordKind.Posted posted = this.kind.post(item, now, errors);
		if (posted == null) {
			return new Item(position, null, null, ProblemType.VALIDATION_FAILED, errors.list());
		}
		return new Item(position, posted.row(), posted.client(), null, List.of());
	}

	/** An item refused before it could be read (a line that is not JSON). */
	public static Item refused(int position, ProblemType type, List<FieldError> errors) {
		return new Item(position, null, null, type, errors);
	}

	/**
	 * Stores the valid items, run after run, and gives every item its result, in the
	 * order of {@code items}.
	 */
	public Mono<Result[]> apply(UUID partnerId, List<Item> items, AuditActor actor) {
		Result[] results = new Result[items.size()];
		for (int i = 0; i < items.size(); i++) {
			Item item = items.get(i);
			if (item.row() == null) {
				results[i] = Result.refused(item.refusedAs(), item.errors());
			}
		}
		return Flux.fromIterable(runs(items))
			.concatMap((run) -> store(partnerId, run, actor, results))
			.then(Mono.fromSupplier(() -> results));
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
				TogetherWrites.Shown one = written.get(i);
				if (one != null) {
					results[run.get(i).position()] = Result
						.stored(one.inserted() ? RecordOutcome.CREATED : RecordOutcome.UPDATED, one);
				}
				else {
					notWritten.add(run.get(i));
				}
			}
			return Flux.fromIterable(notWritten)
				.concatMap((item) -> RecordWrites.notWritten(this.records, partnerId, item.row(), item.client(), actor)
					.map((outcome) -> Result.stored(outcome.outcome(), new RecordView(this.kind, outcome.row())))
					.onErrorResume(ApiException.class,
							(refused) -> (refused.type() == ProblemType.CONFLICT)
									? Mono.just(Result.refused(ProblemType.CONFLICT,
											List.of(new FieldError(ClientRecord.ID, ClientRecord.TAKEN))))
									: Mono.error(refused))
					.doOnNext((result) -> results[item.position()] = result))
				.then();
		});
	}

	/**
	 * An item: its place in the list ({@code position}), and its record, or else how and
	 * why it was refused.
	 */
	public record Item(int position, RecordRow row, ClientRecord client, ProblemType refusedAs,
			List<FieldError> errors) {
	}

	/**
	 * What became of one item: stored with an outcome and the record as stored, or
	 * refused with a code.
	 */
	public record Result(RecordOutcome outcome, JsonWritable record, ProblemType refused, List<FieldError> errors) {

		static Result stored(RecordOutcome outcome, JsonWritable record) {
			return new Result(outcome, record, null, List.of());
		}

		static Result refused(ProblemType type, List<FieldError> errors) {
			return new Result(null, null, type, errors);
		}

		/**
		 * Appends a refused item's {@code "status":…,"code":…,"errors":[…]} (the fields
		 * after its index or line).
		 */
		public void writeRefusal(StringBuilder out) {
			out.append("\"status\":").append(this.refused.status().value()).append(",\"code\":\"");
			out.append(this.refused.code()).append("\",\"errors\":[");
			for (int e = 0; e < this.errors.size(); e++) {
				FieldError error = this.errors.get(e);
				out.append((e > 0) ? ",{\"field\":" : "{\"field\":");
				JsonText.quote(out, error.field()).append(",\"message\":");
				JsonText.quote(out, error.message()).append('}');
			}
			out.append(']');
		}

	}

}
