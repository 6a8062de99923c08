package com.healthpartner.api.erasure;

import java.util.List;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.access.Scopes;
import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.web.Routes;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * Erasing a user needs the write scope of every kind of record (it deletes them all);
 * reading an erasure's progress needs one of them.
 */
@Configuration(proxyBeanMethods = false)
class ErasureRouter {

	@Bean
	RouterFunction<ServerResponse> erasureRoutes(ErasureHandler erasures, List<RecordKind> kinds) {
		List<Scope> writes = kinds.stream().map(RecordKind::write).toList();
		String user = ErasureHandler.USERS + "/{user_id}";
		String erasure = ErasureHandler.ERASURES + "/{id}";
		return route().DELETE(user, erasures::erase)
			.filter(Scopes.requireAll(writes))
			.build()
			.and(route().GET(erasure, erasures::get).filter(Scopes.requireAny(writes)).build())
			.and(Routes.otherMethods(user, HttpMethod.DELETE))
			.and(Routes.otherMethods(erasure, HttpMethod.GET));
	}

}
