package com.healthpartner.api.problem;

import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import io.r2dbc.spi.R2dbcTransientResourceException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Tells a database that cannot be reached (refused, closed, pool exhausted, statement
 * timeout) from every other failure: the former is a 503 a client may retry, the latter a
 * 500.
 */
public final class DatabaseFailures {

	private DatabaseFailures() {
	}

	public static boolean isUnavailable(Throwable failure) {
		for (Throwable t = failure; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			if (t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessResourceException
					|| t instanceof QueryTimeoutException || t instanceof R2dbcNonTransientResourceException
					|| t instanceof R2dbcTransientResourceException || t instanceof R2dbcTimeoutException
					|| t instanceof ConnectException || t instanceof ClosedChannelException
					|| t instanceof TimeoutException) {
				return true;
			}
			String name = t.getClass().getName();
			if (name.startsWith("io.r2dbc.pool.") || name.contains("PostgresConnectionClosedException")
					|| name.contains("PostgresqlConnectionClosedException")
					|| name.startsWith("io.netty.channel.AbstractChannel$AnnotatedConnectException")) {
				return true;
			}
		}
		return false;
	}

}
