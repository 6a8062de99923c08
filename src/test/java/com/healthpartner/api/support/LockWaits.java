package com.healthpartner.api.support;

import org.springframework.r2dbc.core.DatabaseClient;

/**
 * The statements of the test database that wait for a lock another holds: how a test
 * knows that the statement it holds back has started.
 */
public final class LockWaits {

	private LockWaits() {
	}

	public static long count(DatabaseClient db) {
		return db
			.sql("select count(*) as waiting from pg_stat_activity where wait_event_type = 'Lock' "
					+ "and datname = current_database()")
			.map((row) -> row.get("waiting", Long.class))
			.one()
			.block();
	}

}
