package com.healthpartner.api.records;

import java.time.Clock;
import java.util.List;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Scopes;
import com.healthpartner.api.audit.AuditTrail;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.listing.LongReads;
import com.healthpartner.api.system.BatchProperties;
import com.healthpartner.api.system.DatabaseProperties;
import com.healthpartner.api.web.Routes;

import static org.springframework.web.reactive.function.server.RequestPredicates.DELETE;
import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.POST;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * The routes of every record kind (the list of {@code RecordKinds}), each with the scope
 * it needs: {@code GET}, {@code POST} on the list, {@code POST} of a batch, {@code GET},
 * {@code DELETE} on a record.
 */
@Configuration(proxyBeanMethods = false)
class RecordRoutes {

	/** The records of each kind, in the order of the kinds (imports apply lines too). */
	@Bean
	List<RecordRepository> recordRepositories(List<RecordKind> kinds, DatabaseClient db, LongReads longReads,
			PageReads pageReads, DatabaseProperties database) {
		return kinds.stream().map((kind) -> new RecordRepository(kind, db, longReads, pageReads, database)).toList();
	}

	/**
	 * Right after the metric catalog's route, ahead of every other router: the routes are
	 * tried in order, and these are the ones most requests take.
	 */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 1)
	RouterFunction<ServerResponse> recordKindRoutes(List<RecordRepository> repositories, JsonBodies bodies,
			IdempotentCreates creates, RecordLists lists, Listings listings, Clock clock, AuditTrail audit,
			BatchProperties batchLimits) {
		RecordHandler.Parts parts = new RecordHandler.Parts(bodies, creates, lists, listings, clock, audit);
		return Routes.firstOf(repositories.stream()
			.map((records) -> routes(records.kind(), new RecordHandler(records, parts),
					new RecordBatches(records, parts, batchLimits)))
			.toList());
	}

	/**
	 * The routes of one kind, served by {@code handler} and {@code batches}, tried only
	 * by requests under the kind's path.
	 */
	static RouterFunction<ServerResponse> routes(RecordKind kind, RecordHandler handler, RecordBatches batches) {
		return Routes.under(kind.path(), kindRoutes(kind, handler, batches));
	}

	private static RouterFunction<ServerResponse> kindRoutes(RecordKind kind, RecordHandler handler,
			RecordBatches batches) {
		String path = kind.path();
		HandlerFilterFunction<ServerResponse, ServerResponse> reads = Scopes.require(kind.read());
		HandlerFilterFunction<ServerResponse, ServerResponse> writes = Scopes.require(kind.write());
		// each route's scope check wraps its handler, as RouterFunction.filter would, so
		// that the route is found without subscribing (Routes.firstOf); the batch's path
		// goes before /{id}, which it would otherwise match
		return Routes.firstOf(List.of(route(POST(path), writes.apply(handler::create)),
				route(POST(path + "/batch"), writes.apply(batches::create)),
				Routes.otherMethods(path + "/batch", HttpMethod.POST), route(GET(path), reads.apply(handler::list)),
				route(GET(path + "/{id}"), reads.apply(handler::get)),
				route(DELETE(path + "/{id}"), writes.apply(handler::delete)),
				Routes.otherMethods(path, HttpMethod.GET, HttpMethod.POST),
				Routes.otherMethods(path + "/{id}", HttpMethod.GET, HttpMethod.DELETE)));
	}

}
