package com.healthpartner.api.records;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PageReadsTest {

	@Test
	void namedParametersBecomePositionalInTheOrderTheyFirstAppear() {
		PageReads.Positional statement = PageReads.Positional
			.of("select r.view from t r where partner_id = :partnerId and user_id = :userId"
					+ " and r.created_txid >= coalesce((select max(e.cutoff) from e where e.partner_id = :partnerId"
					+ " and e.user_id = :userId), '0'::xid8) and (at, id) > (:afterAt, :afterId) limit :limit");

		assertThat(statement.sql()).isEqualTo("select r.view from t r where partner_id = $1 and user_id = $2"
				+ " and r.created_txid >= coalesce((select max(e.cutoff) from e where e.partner_id = $1"
				+ " and e.user_id = $2), '0'::xid8) and (at, id) > ($3, $4) limit $5");
		assertThat(statement.names()).containsExactly("partnerId", "userId", "afterAt", "afterId", "limit");
	}

	@Test
	void castsAndQuotedTextAreNoParameters() {
		PageReads.Positional statement = PageReads.Positional
			.of("select cast(:ids as uuid[]), x::text, ':notOne' from t where a = :a and b = ':b'");

		assertThat(statement.sql())
			.isEqualTo("select cast($1 as uuid[]), x::text, ':notOne' from t where a = $2 and b = ':b'");
		assertThat(statement.names()).isEqualTo(List.of("ids", "a"));
	}

}
