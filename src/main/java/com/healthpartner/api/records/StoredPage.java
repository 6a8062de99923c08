package com.healthpartner.api.records;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import com.healthpartner.api.system.PositionedViews;

/**
 * A page of a user's records as stored: the views of at most {@code limit} records, in
 * list order ({@code views}, JSON objects as the database holds them, in UTF-8, which is
 * how the answer writes them: a view is never decoded), how many records the query found
 * (one more than the limit tells that a next page exists), and the keyset position of the
 * last record of a full page, where the next page starts after.
 *
 * @param views the records' JSON objects, in list order, in UTF-8
 * @param found the records found, at most the limit plus one
 * @param lastAt the ordering time of the last record of a full page, else null
 * @param lastId the id of the last record of a full page, else null
 */
public record StoredPage(List<byte[]> views, int found, Instant lastAt, UUID lastId) {

	/**
	 * The page that a statement read as one value ({@link PositionedViews#column}), asked
	 * for with at most {@code limit} records shown (the statement's limit being one
	 * more): the views as read, only the position of the record that ends a full page
	 * decoded (the next page's cursor points after it); the record beyond the limit is
	 * only counted.
	 */
	static StoredPage of(PositionedViews records, int limit) {
		int found = records.size();
		boolean full = found >= limit;
		return new StoredPage(records.views(Math.min(found, limit)), found, full ? records.at(limit - 1) : null,
				full ? records.id(limit - 1) : null);
	}

	/**
	 * Two pages are equal when they hold the same views, by their bytes, and the rest.
	 */
	@Override
	public boolean equals(Object other) {
		if (!(other instanceof StoredPage page) || page.views.size() != this.views.size()) {
			return false;
		}
		for (int i = 0; i < this.views.size(); i++) {
			if (!Arrays.equals(page.views.get(i), this.views.get(i))) {
				return false;
			}
		}
		return page.found == this.found && Objects.equals(page.lastAt, this.lastAt)
				&& Objects.equals(page.lastId, this.lastId);
	}

	@Override
	public int hashCode() {
		int hash = Objects.hash(this.found, this.lastAt, this.lastId);
		for (byte[] view : this.views) {
			hash = 31 * hash + Arrays.hashCode(view);
		}
		return hash;
	}

	/** The page with its views as text, for a test's or a log's eyes. */
	@Override
	public String toString() {
		return "StoredPage[views=" + texts() + ", found=" + this.found + ", lastAt=" + this.lastAt + ", lastId="
				+ this.lastId + "]";
	}

	/** The views as text. */
	public List<String> texts() {
		return this.views.stream().map((view) -> new String(view, StandardCharsets.UTF_8)).toList();
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
