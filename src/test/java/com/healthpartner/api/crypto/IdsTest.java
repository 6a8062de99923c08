package com.healthpartner.api.crypto;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IdsTest {

	@Test
	void orderedIdsAreVersionSevenAndSortByTheirMillisecondAsPostgresqlComparesThem() {
		long at = Instant.parse("2026-11-24T21:00:00.123Z").toEpochMilli();
		UUID earlier = Ids.ordered(at);
		UUID later = Ids.ordered(at + 1);
		assertThat(earlier.version()).isEqualTo(7);
		assertThat(earlier.variant()).isEqualTo(2);
		assertThat(earlier.getMostSignificantBits() >>> 16).isEqualTo(at);
		// PostgreSQL compares uuids byte by byte, unsigned
		assertThat(Long.compareUnsigned(earlier.getMostSignificantBits(), later.getMostSignificantBits())).isNegative();
		assertThat(earlier.toString()).isLessThan(later.toString());
	}

	@Test
	void orderedIdsOfOneMillisecondAreDistinct() {
		long at = Instant.parse("2026-11-24T21:00:00Z").toEpochMilli();
		Set<UUID> ids = new HashSet<>();
		for (int i = 0; i < 100_000; i++) {
			ids.add(Ids.ordered(at));
		}
		assertThat(ids).hasSize(100_000);
	}

}
