package com.healthpartner.api.problem;

import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;

import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import io.r2dbc.spi.R2dbcTransientResourceException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Tells a database that cannot be reached (refused, closed, pool exhausted, statement
 * timeout) and a transaction the database undid because it met a concurrent one
 * (deadlock, serialization failure: SQLSTATE class 40) from every other failure: the
 * former two are a 503 a client may retry, the rest a 500.
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

	/**
	 * The database undid the statement's transaction because of a concurrent one
	 * (SQLSTATE class 40: deadlock detected, serialization failure), read from the
	 * driver's exception among the causes (Spring's translation wraps it): nothing of it
	 * was written, and the same request may well succeed again.
	 */
	public static boolean isConflict(Throwable failure) {
		for (Throwable t = failure; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			if (t instanceof R2dbcException database && database.getSqlState() != null
					&& database.getSqlState().startsWith("40")) {
				return true;
			}
		}
		return false;
	}

}
