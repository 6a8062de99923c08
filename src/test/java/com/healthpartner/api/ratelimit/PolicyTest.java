package com.healthpartner.api.ratelimit;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PolicyTest {

	@Test
	void equalPoliciesHashAlikeAndAnyDifferentFieldMakesAnotherPolicy() {
		Policy policy = new Policy("default", 60, Duration.ofMinutes(1));
		Policy same = new Policy(new String("default"), 60, Duration.ofSeconds(60));
		assertThat(policy).isEqualTo(same).hasSameHashCodeAs(same);
		assertThat(policy).isNotEqualTo(new Policy("bench", 60, Duration.ofMinutes(1)))
			.isNotEqualTo(new Policy("default", 61, Duration.ofMinutes(1)))
			.isNotEqualTo(new Policy("default", 60, Duration.ofHours(1)));
	}

	@Test
	void decisionsUnderEqualPoliciesAreCountedTogetherAndApartFromOthers() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		DecisionCounters counters = new DecisionCounters(meters);
		Policy policy = new Policy("default", 60, Duration.ofMinutes(1));
		counters.count(new Decision(policy, true, 59, 0, 0));
		counters.count(new Decision(new Policy("default", 60, Duration.ofMinutes(1)), true, 58, 0, 0));
		counters.count(new Decision(policy, false, 0, 0, 0));
		counters.count(new Decision(new Policy("bench", 1_000, Duration.ofMinutes(1)), true, 999, 0, 0));
		assertThat(
				meters.get("ratelimit.decisions").tag("policy", "default").tag("outcome", "allowed").counter().count())
			.isEqualTo(2);
		assertThat(
				meters.get("ratelimit.decisions").tag("policy", "default").tag("outcome", "limited").counter().count())
			.isEqualTo(1);
		assertThat(meters.get("ratelimit.decisions").tag("policy", "bench").tag("outcome", "allowed").counter().count())
			.isEqualTo(1);
	}

}
