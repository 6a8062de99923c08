package com.healthpartner.api.system;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;

/**
 * Ids bound as parameters through the service's connections arrive as the ids they are,
 * and a null id as null.
 */
class BinaryUuidsTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Test
	void sendsEveryIdAsItIs() {
		for (UUID id : List.of(UUID.randomUUID(), new UUID(0, 0), new UUID(-1, -1),
				UUID.fromString("01a2124b-c4a7-7ff4-aced-a84dfa3dde98"))) {
			this.db.sql("select cast(:text as uuid) = :id as same, :id as back")
				.bind("text", id.toString())
				.bind("id", id)
				.map((row) -> List.of(row.get("same", Boolean.class), row.get("back", UUID.class)))
				.one()
				.as(StepVerifier::create)
				.expectNext(List.of(true, id))
				.verifyComplete();
		}
		this.db.sql("select cast(:id as uuid) is null as missing")
			.bindNull("id", UUID.class)
			.map((row) -> row.get("missing", Boolean.class))
			.one()
			.as(StepVerifier::create)
			.expectNext(true)
			.verifyComplete();
	}

}
