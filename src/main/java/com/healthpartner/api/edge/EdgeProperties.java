package com.healthpartner.api.edge;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Limits of the HTTP edge: how long a request may take to arrive from its first byte to
 * its last ({@code APP_HTTP_REQUEST_READ_TIMEOUT}), how long a kept-alive connection may
 * sit idle ({@code APP_HTTP_IDLE_TIMEOUT}), and how long a request target may be
 * ({@code APP_HTTP_MAX_REQUEST_TARGET}).
 */
@ConfigurationProperties("app.http")
public record EdgeProperties(@DefaultValue("10s") Duration requestReadTimeout,
		@DefaultValue("60s") Duration idleTimeout, @DefaultValue("4096") int maxRequestTarget) {

	public EdgeProperties {
		if (requestReadTimeout.isNegative() || requestReadTimeout.isZero()) {
			throw new IllegalArgumentException("APP_HTTP_REQUEST_READ_TIMEOUT must be a positive duration such as 10s");
		}
		if (idleTimeout.isNegative() || idleTimeout.isZero()) {
			throw new IllegalArgumentException("APP_HTTP_IDLE_TIMEOUT must be a positive duration such as 60s");
		}
		if (maxRequestTarget < 256 || maxRequestTarget > 8192) {
			throw new IllegalArgumentException("APP_HTTP_MAX_REQUEST_TARGET must be between 256 and 8192");
		}
	}

}
