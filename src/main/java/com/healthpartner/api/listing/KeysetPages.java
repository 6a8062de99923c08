package com.healthpartner.api.listing;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;

import com.healthpartner.api.system.Filters;

/**
 * The statement of a page of an administrator's listing: the rows of a table that pass
 * the filters given, in ({@code orderedBy}, {@code id}) order, after a cursor's position.
 */
public final class KeysetPages {

	private KeysetPages() {
	}

	/**
	 * At most {@code limit} rows of {@code table} that pass {@code filters}, after
	 * {@code after} (null: from the first), in ({@code orderedBy}, {@code id}) order.
	 */
	public static GenericExecuteSpec select(DatabaseClient db, String table, String orderedBy, Filters filters,
			Cursors.Position after, int limit) {
		if (after != null) {
			filters.and("(" + orderedBy + ", id) > (:afterAt, :afterId)", "afterAt", after.at(), "afterId", after.id());
		}
		return filters
			.bind(db
				.sql("select * from " + table + " " + filters.where() + " order by " + orderedBy + ", id limit :limit"))
			.bind("limit", limit);
	}

}
