package com.healthpartner.api.system;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A listing's statement names only the filters given.
 */
class FiltersTest {

	@Test
	void leavesOutTheFiltersNotGiven() {
		assertThat(new Filters().when(null, "a = :a", "a", null).where()).isEmpty();
		assertThat(new Filters().when("x", "a = :a", "a", "x").when(null, "b = :b", "b", null).where())
			.isEqualTo("where a = :a");
		assertThat(new Filters().when(null, "a = :a", "a", null)
			.when(7, "b = :b", "b", 7)
			.and("(at, id) > (:afterAt, :afterId)", "afterAt", 1, "afterId", 2)
			.where()).isEqualTo("where b = :b and (at, id) > (:afterAt, :afterId)");
	}

	@Test
	void refusesParametersThatAreNotPairs() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Filters().and("a = :a", "a"));
	}

}
