package com.healthpartner.api.records;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.r2dbc.spi.Readable;

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
	 * Builds a page from the rows of its query as they arrive, a query of each record's
	 * {@code view}, ordering time and id with a limit of {@code limit + 1}: the views are
	 * passed through, not parsed, and only the record that ends a full page has its
	 * position decoded (the cursor of the next page, if there is one, points after it);
	 * the record beyond the limit is only counted.
	 */
	static final class Reader {

		private final int limit;

		private final List<String> views;

		private int found;

		private Instant lastAt;

		private UUID lastId;

		Reader(int limit) {
			this.limit = limit;
			this.views = new ArrayList<>(Math.max(0, Math.min(limit, 128)));
		}

		/**
		 * A row of the page's query, whose columns from {@code first} on are the record's
		 * view, ordering time and id.
		 */
		void add(Readable row, int first) {
			int found = ++this.found;
			if (found <= this.limit) {
				this.views.add(row.get(first, String.class));
			}
			if (found == this.limit) {
				this.lastAt = row.get(first + 1, Instant.class);
				this.lastId = row.get(first + 2, UUID.class);
			}
		}

		StoredPage page() {
			return new StoredPage(this.views, this.found, this.lastAt, this.lastId);
		}

	}

	/** Whether there are records after this page. */
	public boolean more(int limit) {
		return this.found > limit;
	}

	/** How many records the page shows. */
	public int shown(int limit) {
		return Math.min(this.found, limit);
	}

}
