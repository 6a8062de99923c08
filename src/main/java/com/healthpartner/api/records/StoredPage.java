package com.healthpartner.api.records;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import io.r2dbc.spi.Readable;
import io.r2dbc.spi.Result;
import org.reactivestreams.Publisher;

/**
 * A page of a user's records as stored: the views of at most {@code limit} records, in
 * list order ({@code views}, JSON objects as the database holds them), how many records
 * the query found (one more than the limit tells that a next page exists), and the keyset
 * position of the last record of a full page, where the next page starts after.
 *
 * @param views the records' JSON objects, in list order
 * @param found the records found, at most the limit plus one
 * @param lastAt the ordering time of the last record of a full page, else null
 * @param lastId the id of the last record of a full page, else null
 */
public record StoredPage(List<String> views, int found, Instant lastAt, UUID lastId) {

	/**
	 * The records of the result of a page's query, a query of each record's {@code view},
	 * ordering time and id (its first three columns) with a limit of {@code limit + 1}:
	 * the views are passed through, not parsed, and only the record that ends a full page
	 * has its position decoded (the cursor of the next page, if there is one, points
	 * after it). A function per execution: it counts the rows.
	 */
	static Function<Result, Publisher<Shown>> rows(int limit) {
		int[] read = { 0 };
		return (result) -> result
			.map((row) -> (++read[0] == limit) ? Shown.of(row) : new Shown(row.get(0, String.class), null, null));
	}

	static StoredPage of(List<Shown> shown, int limit) {
		int count = Math.min(shown.size(), limit);
		List<String> views = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			views.add(shown.get(i).view());
		}
		Shown last = (count == limit) ? shown.get(count - 1) : null;
		return new StoredPage(views, shown.size(), (last != null) ? last.at() : null,
				(last != null) ? last.id() : null);
	}

	/** Whether there are records after this page. */
	public boolean more(int limit) {
		return this.found > limit;
	}

	/** How many records the page shows. */
	public int shown(int limit) {
		return Math.min(this.found, limit);
	}

	/** A record of a page: its stored view and its keyset position. */
	public record Shown(String view, Instant at, UUID id) {

		/** The record of a row whose first columns are its view, ordering time and id. */
		public static Shown of(Readable row) {
			return new Shown(row.get(0, String.class), row.get(1, Instant.class), row.get(2, UUID.class));
		}

	}

}
