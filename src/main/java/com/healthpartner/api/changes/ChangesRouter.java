package com.healthpartner.api.changes;

import java.util.List;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Scopes;
import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.web.Routes;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/** The change feed: any key that may read a kind of record. */
@Configuration(proxyBeanMethods = false)
class ChangesRouter {

	@Bean
	RouterFunction<ServerResponse> changeRoutes(ChangesHandler changes, List<RecordKind> kinds) {
		return route().GET(ChangesHandler.PATH, changes::list)
			.filter(Scopes.requireAny(kinds.stream().map(RecordKind::read).toList()))
			.build()
			.and(Routes.otherMethods(ChangesHandler.PATH, HttpMethod.GET));
	}

}
