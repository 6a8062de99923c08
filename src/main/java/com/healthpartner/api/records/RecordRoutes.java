package com.healthpartner.api.records;

import java.time.Clock;
import java.util.List;

import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.http.server.PathContainer;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Scopes;
import com.healthpartner.api.audit.AuditTrail;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.listing.LongReads;
import com.healthpartner.api.system.DatabaseProperties;
import com.healthpartner.api.web.Routes;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * The routes of every record kind (the list of {@code RecordKinds}), each with the scope
 * it needs: {@code GET}, {@code POST} on the list, {@code GET}, {@code DELETE} on a
 * record.
 */
@Configuration(proxyBeanMethods = false)
class RecordRoutes {

	/**
	 * Right after the metric catalog's route, ahead of every other router: the routes are
	 * tried in order, and these are the ones most requests take.
	 */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 1)
	RouterFunction<ServerResponse> recordKindRoutes(List<RecordKind> kinds, DatabaseClient db, LongReads longReads,
			PageReads pageReads, DatabaseProperties database, JsonBodies bodies, IdempotentCreates creates,
			RecordLists lists, Listings listings, JsonMapper mapper, Clock clock, AuditTrail audit) {
		RecordHandler.Parts parts = new RecordHandler.Parts(bodies, creates, lists, listings, mapper, clock, audit);
		return kinds.stream()
			.map((kind) -> routes(kind,
					new RecordHandler(new RecordRepository(kind, db, longReads, pageReads, database), parts)))
			.reduce(RouterFunction::and)
			.orElseThrow();
	}

	/**
	 * The routes of one kind, served by {@code handler}, tried only by requests under the
	 * kind's path: a request of another kind is turned away by one look at its path
	 * rather than by each route's pattern in turn.
	 */
	static RouterFunction<ServerResponse> routes(RecordKind kind, RecordHandler handler) {
		RouterFunction<ServerResponse> routes = kindRoutes(kind, handler);
		List<String> segments = List.of(kind.path().substring(1).split("/"));
		return new RouterFunction<>() {

			@Override
			public Mono<HandlerFunction<ServerResponse>> route(ServerRequest request) {
				return under(request.requestPath().pathWithinApplication(), segments) ? routes.route(request)
						: Mono.empty();
			}

			@Override
			public void accept(RouterFunctions.Visitor visitor) {
				routes.accept(visitor);
			}

		};
	}

	/**
	 * Whether {@code path} begins with {@code segments}, each compared as a route's
	 * pattern compares it (decoded, without matrix variables); separators are skipped, so
	 * that whatever a route of the kind would match passes.
	 */
	private static boolean under(PathContainer path, List<String> segments) {
		int next = 0;
		for (PathContainer.Element element : path.elements()) {
			if (next == segments.size()) {
				return true;
			}
			if (element instanceof PathContainer.PathSegment segment) {
				if (!segment.valueToMatch().equals(segments.get(next++))) {
					return false;
				}
			}
		}
		return next == segments.size();
	}

	private static RouterFunction<ServerResponse> kindRoutes(RecordKind kind, RecordHandler handler) {
		String path = kind.path();
		return route().POST(path, handler::create)
			.filter(Scopes.require(kind.write()))
			.build()
			.and(route().GET(path, handler::list).filter(Scopes.require(kind.read())).build())
			.and(route().GET(path + "/{id}", handler::get).filter(Scopes.require(kind.read())).build())
			.and(route().DELETE(path + "/{id}", handler::delete).filter(Scopes.require(kind.write())).build())
			.and(Routes.otherMethods(path, HttpMethod.GET, HttpMethod.POST))
			.and(Routes.otherMethods(path + "/{id}", HttpMethod.GET, HttpMethod.DELETE));
	}

}
