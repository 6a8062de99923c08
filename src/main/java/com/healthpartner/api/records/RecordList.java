package com.healthpartner.api.records;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One kind of health record as {@link RecordLists} lists it: where it lives and how its
 * stored views are read.
 */
public interface RecordList {

	/** The list's path, e.g. {@code /api/v1/health/metrics}. */
	String path();

	/** The resource named in the audit trail ({@code metrics}). */
	String resource();

	/** Whether the list takes {@code start_date} and {@code end_date}. */
	boolean filteredByDate();

	/** At most {@code limit} records in list order, their stored views passed through. */
	Mono<StoredPage> page(UserQuery query, int limit);

	/**
	 * The view of every record in list order, fetched in batches (an NDJSON export).
	 */
	Flux<String> stream(UserQuery query);

}
