package com.healthpartner.api.listing;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import org.springframework.web.reactive.function.server.ServerRequest;

import com.healthpartner.api.problem.FieldErrors;

/**
 * The {@code limit} and {@code cursor} parameters of every list, and the step from a page
 * of rows (fetched with one row more than asked) to its answer.
 */
public final class Paging {

	public static final int DEFAULT_LIMIT = 100;

	public static final int MAX_LIMIT = 1000;

	private Paging() {
	}

	/** The limit asked for, or the default; a bad value is added to {@code errors}. */
	public static int limit(ServerRequest request, FieldErrors errors) {
		Optional<String> value = request.queryParam("limit");
		if (value.isEmpty()) {
			return DEFAULT_LIMIT;
		}
		try {
			int limit = Integer.parseInt(value.get().trim());
			if (limit >= 1 && limit <= MAX_LIMIT) {
				return limit;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		errors.add("limit", "must be a whole number from 1 to " + MAX_LIMIT);
		return DEFAULT_LIMIT;
	}

	/**
	 * Turns {@code limit + 1} fetched rows into a page: the extra row only tells that a
	 * next page exists, and the cursor points after the last row shown.
	 */
	public static <R, T> Page<T> page(List<R> rows, int limit, Function<R, T> view, Function<R, Instant> at,
			Function<R, UUID> id, Cursors cursors, String query) {
		boolean more = rows.size() > limit;
		List<R> shown = more ? rows.subList(0, limit) : rows;
		String next = null;
		if (more) {
			R last = shown.get(shown.size() - 1);
			next = cursors.encode(query, at.apply(last), id.apply(last));
		}
		return new Page<>(shown.stream().map(view).toList(), next);
	}

}
