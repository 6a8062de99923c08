package com.healthpartner.api.records;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Readable;
import io.r2dbc.spi.Statement;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.system.HeldContext;
import com.healthpartner.api.system.PositionedViews;

/**
 * Runs the query of a list page on a pooled connection through the driver directly, the
 * hottest read of the service: a page has no transaction to join and its few parameters
 * are bound by position, so the work {@code DatabaseClient} does around every statement
 * (looking for a transaction in the subscriber's context, expanding named parameters,
 * translating exceptions) is left out. A statement is written with named parameters like
 * every other ({@code :partnerId}); each text is turned into the driver's positional form
 * ({@code $1}) once, by the repository that holds it ({@link Positional#of}).
 */
@Component
public class PageReads {

	private final ConnectionFactory connections;

	PageReads(ConnectionFactory connections) {
		this.connections = connections;
	}

	/**
	 * The page of at most {@code limit} records that the list query {@code statement}
	 * finds for {@code query}. The query's parameters are {@code :partnerId},
	 * {@code :userId}, {@code :from} and {@code :until} (where the range has them),
	 * {@code :afterAt} and {@code :afterId} (after a position) and {@code :limit}, bound
	 * to one more than the limit (a record beyond the page tells that there is a next
	 * one); it selects one row, the page as one value ({@link PositionedViews#column}). A
	 * statement that gives no row fails ({@code 500}), as a page read together with
	 * others does, rather than answer as no page.
	 */
	public Mono<StoredPage> page(Positional statement, UserQuery query, int limit) {
		return Mono.defer(() -> {
			StoredPage[] page = new StoredPage[1];
			return read(statement, (name) -> value(query, name, limit),
					(row) -> page[0] = StoredPage.of(row.get(0, PositionedViews.class), limit))
				.then(Mono.fromCallable(() -> {
					if (page[0] == null) {
						throw new IllegalStateException("The statement of a page read alone gave no row");
					}
					return page[0];
				}));
		});
	}

	/**
	 * Runs {@code statement}, its parameters given by name ({@code values}), and hands
	 * each row to {@code rows} as it arrives; completes once the last row is read.
	 */
	public Mono<Void> rows(Positional statement, Function<String, Object> values, Consumer<Readable> rows) {
		return read(statement, values, rows);
	}

	private Mono<Void> read(Positional statement, Function<String, Object> values, Consumer<Readable> rows) {
		// the driver's and the pool's operators find the context here, not at the handler
		return HeldContext.held(Flux.usingWhen(this.connections.create(), (connection) -> {
			Statement bound = connection.createStatement(statement.sql());
			List<String> names = statement.names();
			for (int i = 0; i < names.size(); i++) {
				bound.bind(i, values.apply(names.get(i)));
			}
			// a row ends where it is read, the operators below see a count a statement;
			// counting hands each row's marker to the discard hook, which asks for the
			// subscriber context: held right below the count, the question ends there
			// instead of walking up every operator of the statement and the request
			return Flux.from(bound.execute()).concatMap((result) -> HeldContext.held(Flux.from(result.map((row) -> {
				rows.accept(row);
				return Boolean.TRUE;
			})).count()));
		}, Connection::close, (connection, failure) -> connection.close(), Connection::close).then());
	}

	private static Object value(UserQuery query, String name, int limit) {
		return switch (name) {
			case "partnerId" -> query.partnerId();
			case "userId" -> query.userId();
			case "from" -> query.range().from();
			case "until" -> query.range().until();
			case "afterAt" -> query.after().at();
			case "afterId" -> query.after().id();
			case "limit" -> limit + 1;
			default -> throw new IllegalArgumentException("A list query has no parameter " + name);
		};
	}

	/**
	 * A statement in the driver's form, compacted ({@link SqlText}): {@code $n} for the
	 * n-th distinct named parameter of the text, the names in that order. A name starts
	 * with a colon after anything but a colon ({@code ::} is a cast), outside quotes.
	 */
	public record Positional(String sql, List<String> names) {

		public static Positional of(String text) {
			String named = SqlText.compact(text);
			StringBuilder sql = new StringBuilder(named.length());
			List<String> names = new ArrayList<>();
			boolean quoted = false;
			for (int i = 0; i < named.length(); i++) {
				char c = named.charAt(i);
				if (c == '\'') {
					quoted = !quoted;
				}
				boolean parameter = !quoted && c == ':' && i + 1 < named.length()
						&& Character.isJavaIdentifierStart(named.charAt(i + 1))
						&& (i == 0 || named.charAt(i - 1) != ':');
				if (!parameter) {
					sql.append(c);
					continue;
				}
				int end = i + 1;
				while (end < named.length() && Character.isJavaIdentifierPart(named.charAt(end))) {
					end++;
				}
				String name = named.substring(i + 1, end);
				int index = names.indexOf(name);
				if (index < 0) {
					names.add(name);
					index = names.size() - 1;
				}
				sql.append('$').append(index + 1);
				i = end - 1;
			}
			return new Positional(sql.toString(), List.copyOf(names));
		}

	}

}
