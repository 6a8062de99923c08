package com.healthpartner.api.audit;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.web.Routes;

/**
 * The administrator's view of the audit trail; the admin token is checked by the admin
 * filter before routing.
 */
@Configuration(proxyBeanMethods = false)
class AuditRouter {

	@Bean
	RouterFunction<ServerResponse> auditRoutes(AuditHandler handler) {
		return RouterFunctions.route()
			.GET("/admin/v1/audit", handler::list)
			.add(Routes.otherMethods("/admin/v1/audit", HttpMethod.GET))
			.build();
	}

}
