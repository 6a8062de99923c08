package com.healthpartner.api.system;

import io.r2dbc.postgresql.PostgresqlConnectionFactoryProvider;
import io.r2dbc.spi.ConnectionFactoryOptions;

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
	ConnectionFactoryOptionsBuilderCustomizer boundedWaits(DatabaseProperties database) {
		return (options) -> options.option(ConnectionFactoryOptions.CONNECT_TIMEOUT, database.connectTimeout())
			.option(PostgresqlConnectionFactoryProvider.STATEMENT_TIMEOUT, database.statementTimeout())
			.option(PostgresqlConnectionFactoryProvider.TCP_KEEPALIVE, true);
	}

}
