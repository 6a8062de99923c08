package com.healthpartner.api.partner;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.web.Routes;

/**
 * Every administrator route; the admin token is checked by {@code AdminTokenFilter}
 * before routing.
 */
@Configuration(proxyBeanMethods = false)
class AdminRouter {

	@Bean
	RouterFunction<ServerResponse> adminRoutes(AdminRegistrationHandler registrations, AdminPartnerHandler partners) {
		return RouterFunctions.route()
			.GET("/admin/v1/registrations", registrations::list)
			.POST("/admin/v1/registrations/{id}/approve", registrations::approve)
			.POST("/admin/v1/registrations/{id}/reject", registrations::reject)
			.GET("/admin/v1/partners", partners::list)
			.GET("/admin/v1/partners/{id}", partners::get)
			.PATCH("/admin/v1/partners/{id}", partners::update)
			.POST("/admin/v1/partners/{id}/keys", partners::issueKey)
			.DELETE("/admin/v1/partners/{id}/keys/{keyId}", partners::revokeKey)
			.add(Routes.otherMethods("/admin/v1/registrations", HttpMethod.GET))
			.add(Routes.otherMethods("/admin/v1/registrations/{id}/approve", HttpMethod.POST))
			.add(Routes.otherMethods("/admin/v1/registrations/{id}/reject", HttpMethod.POST))
			.add(Routes.otherMethods("/admin/v1/partners", HttpMethod.GET))
			.add(Routes.otherMethods("/admin/v1/partners/{id}", HttpMethod.GET, HttpMethod.PATCH))
			.add(Routes.otherMethods("/admin/v1/partners/{id}/keys", HttpMethod.POST))
			.add(Routes.otherMethods("/admin/v1/partners/{id}/keys/{keyId}", HttpMethod.DELETE))
			.build();
	}

}
