package com.healthpartner.api.system;

import java.time.Duration;

import io.r2dbc.postgresql.PostgresqlConnectionFactoryProvider;
import io.r2dbc.spi.ConnectionFactoryOptions;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.r2dbc.autoconfigure.ConnectionFactoryOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Bounded waits on PostgreSQL: connecting and every statement have a time limit, so that
 * an outage becomes a quick 503 instead of a hanging request.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

	@Bean
	ConnectionFactoryOptionsBuilderCustomizer boundedWaits(@Value("${app.database.connect-timeout}") Duration connect,
			@Value("${app.database.statement-timeout}") Duration statement) {
		return (options) -> options.option(ConnectionFactoryOptions.CONNECT_TIMEOUT, connect)
			.option(PostgresqlConnectionFactoryProvider.STATEMENT_TIMEOUT, statement)
			.option(PostgresqlConnectionFactoryProvider.TCP_KEEPALIVE, true);
	}

}
