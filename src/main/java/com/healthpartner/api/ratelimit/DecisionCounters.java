package com.healthpartner.api.ratelimit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * {@code ratelimit_decisions_total{policy, outcome}}: requests taken (allowed) or refused
 * (limited) under each policy.
 */
@Component
class DecisionCounters {

	private final MeterRegistry meters;

	private final Map<Policy, Counter[]> counters = new ConcurrentHashMap<>();

	DecisionCounters(MeterRegistry meters) {
		this.meters = meters;
	}

	void count(Decision decision) {
		Counter[] pair = this.counters.get(decision.policy());
		if (pair == null) {
			pair = this.counters.computeIfAbsent(decision.policy(), this::register);
		}
		pair[decision.allowed() ? 0 : 1].increment();
	}

	private Counter[] register(Policy policy) {
		return new Counter[] { counter(policy, "allowed"), counter(policy, "limited") };
	}

	private Counter counter(Policy policy, String outcome) {
		return Counter.builder("ratelimit.decisions")
			.description("Requests taken (allowed) or refused (limited) under a rate-limit policy")
			.tag("policy", policy.name())
			.tag("outcome", outcome)
			.register(this.meters);
	}

}
