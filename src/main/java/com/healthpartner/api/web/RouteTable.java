package com.healthpartner.api.web;

import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;

/**
 * Every router of the service, in their order, tried by one mapping ahead of WebFlux's
 * own: the same routes (WebFlux's {@link RouterFunctionMapping} holds them too, and
 * answers what this one does not route, which is only what no router routes), found
 * through {@link Routes#firstOf} instead of the chain of {@code andOther} WebFlux builds
 * of them, which a request passes level by level up to the router that routes it.
 */
@Configuration(proxyBeanMethods = false)
class RouteTable {

	@Bean
	RouterFunctionMapping routeTableMapping(ObjectProvider<RouterFunction<?>> routers, ServerCodecConfigurer codecs) {
		List<RouterFunction<?>> ordered = routers.orderedStream().toList();
		RouterFunctionMapping mapping = new RouterFunctionMapping(Routes.firstOf(ordered));
		// just before WebFlux's RouterFunctionMapping (-1), after what came before it
		mapping.setOrder(-2);
		mapping.setMessageReaders(codecs.getReaders());
		return mapping;
	}

}
