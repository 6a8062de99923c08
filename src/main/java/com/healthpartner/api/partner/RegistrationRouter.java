package com.healthpartner.api.partner;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.web.Routes;

@Configuration(proxyBeanMethods = false)
class RegistrationRouter {

	@Bean
	RouterFunction<ServerResponse> registrationRoutes(RegistrationHandler handler) {
		return RouterFunctions.route()
			.POST("/api/v1/auth", handler::register)
			.add(Routes.otherMethods("/api/v1/auth", HttpMethod.POST))
			.build();
	}

}
