package com.healthpartner.api.records;

import java.time.Instant;

import tools.jackson.databind.node.ObjectNode;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.text.JsonText;

/**
 * One kind of health record, all that tells it from the others: the routes, handler,
 * repository, list queries, write and page batches, erasure and change feed of every kind
 * are built from this descriptor (docs/architecture.md, Record kinds). A kind is declared
 * in its own package, with the reader of its content, and listed by {@code RecordKinds}.
 *
 * @param resource the path segment under {@code /api/v1/health/}, and the resource named
 * in the change feed and the audit trail ({@code metrics})
 * @param noun what a {@code 404} or a bad id calls one record ({@code metrics record})
 * @param table its table ({@code metric_records})
 * @param content its {@code jsonb} column and the field partners see it in
 * ({@code metrics})
 * @param view the SQL function that renders a record as partners see it
 * ({@code metric_view}, V31)
 * @param dated whether records have {@code recorded_at}: lists are then filtered by it
 * ({@code start_date}, {@code end_date}) and ordered by it, else by {@code created_at}
 * @param read the scope that reads the kind
 * @param write the scope that writes it
 * @param reader checks a posted body and reads its content
 */
public record RecordKind(String resource, String noun, String table, String content, String view, boolean dated,
		Scope read, Scope write, ContentReader reader) {

	/** The path of every kind's list, followed by its resource. */
	public static final String BASE_PATH = "/api/v1/health/";

	/** The list's path ({@code /api/v1/health/metrics}). */
	public String path() {
		return BASE_PATH + this.resource;
	}

	/** The column a list is ordered by, then by {@code id}. */
	String orderedBy() {
		return this.dated ? "recorded_at" : "created_at";
	}

	/**
	 * The columns every query that maps a record selects first, in the order of
	 * {@link RecordRow}'s fields.
	 */
	String columns() {
		return "id, user_id, client_record_id, client_record_version, " + this.content + "::text as " + this.content
				+ (this.dated ? ", recorded_at" : "") + ", created_at, coalesce(updated_at, created_at) as updated_at";
	}

	/** The column of {@code user_erasures} that counts the kind's erased records. */
	public String erasureCounter() {
		return this.resource + "_deleted";
	}

	/**
	 * A posted body (of the single POST, or an item of a batch) as the row to store and
	 * its client record id; null when a field was bad, each added to {@code errors}
	 * (which may hold errors of the request already). {@code now} is when the service
	 * received the request.
	 */
	Posted post(ObjectNode body, Instant now, FieldErrors errors) {
		Submitted submitted = this.reader.read(body, now, errors);
		ClientRecord client = ClientRecord.read(body, errors);
		if (!errors.isEmpty()) {
			return null;
		}
		Instant at = Timestamps.truncate(now);
		return new Posted(new RecordRow(Ids.random(), submitted.userId(), client.id(), client.version(),
				JsonText.write(new StringBuilder(), submitted.content()).toString(), submitted.recordedAt(), at, at),
				client);
	}

	/** A posted record, checked, with its client record id. */
	record Posted(RecordRow row, ClientRecord client) {
	}

	/** Checks the body of a POST and reads what it submits. */
	@FunctionalInterface
	public interface ContentReader {

		/**
		 * The submitted record, every bad field added to {@code errors} with its path;
		 * {@code now} is when the service received the request.
		 */
		Submitted read(ObjectNode body, Instant now, FieldErrors errors);

	}

	/**
	 * A checked record, not yet stored; {@code recordedAt} is null for a kind that is not
	 * dated.
	 */
	public record Submitted(String userId, ObjectNode content, Instant recordedAt) {
	}

}
