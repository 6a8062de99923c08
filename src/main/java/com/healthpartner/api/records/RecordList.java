package com.healthpartner.api.records;

import java.time.Instant;
import java.util.UUID;

import reactor.core.publisher.Flux;

/**
 * One kind of health record as {@link RecordLists} lists it: where it lives, how its rows
 * are read, and what a partner sees of a row.
 *
 * @param <R> the stored row
 */
public interface RecordList<R> {

	/** The list's path, e.g. {@code /api/v1/health/metrics}. */
	String path();

	/** The resource named in the audit trail ({@code metrics}). */
	String resource();

	/** Whether the list takes {@code start_date} and {@code end_date}. */
	boolean filteredByDate();

	/** At most {@code limit} rows in list order. */
	Flux<R> page(UserQuery query, int limit);

	/** Every row in list order, fetched in batches (an NDJSON export). */
	Flux<R> stream(UserQuery query);

	/** What a partner sees of a row. */
	Object view(R row);

	/** The time a row is ordered by, with {@link #id}: its keyset position. */
	Instant orderedAt(R row);

	UUID id(R row);

}
