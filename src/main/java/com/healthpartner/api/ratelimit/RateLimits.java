package com.healthpartner.api.ratelimit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.web.RequestPaths;

/**
 * What the rate-limit filters share: taking a request from the limiter, remembering the
 * decisions on the exchange (the headers are written from them when the answer is
 * committed, whatever the answer is), and the {@code 429}.
 */
@Component
class RateLimits {

	static final String DECISIONS = RateLimits.class.getName() + ".decisions";

	private final RateLimiter limiter;

	private final MeterRegistry meters;

	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	RateLimits(RateLimiter limiter, MeterRegistry meters) {
		this.limiter = limiter;
		this.meters = meters;
	}

	Mono<Decision> acquire(ServerWebExchange exchange, Policy policy, String subject) {
		return this.limiter.acquire(policy, subject).doOnNext((decision) -> {
			decisions(exchange).add(decision);
			counter(decision).increment();
		});
	}

	/**
	 * A refusal decided without the limiter (the window is known to be used up), recorded
	 * like one of its decisions.
	 */
	void refused(ServerWebExchange exchange, Decision decision) {
		decisions(exchange).add(decision);
		counter(decision).increment();
	}

	@SuppressWarnings("unchecked")
	static List<Decision> decisions(ServerWebExchange exchange) {
		return (List<Decision>) exchange.getAttributes().computeIfAbsent(DECISIONS, (key) -> new ArrayList<>(2));
	}

	static ApiException limited(Decision decision) {
		long retryAfter = Math.max(1, decision.secondsToReset());
		return new ApiException(ProblemType.RATE_LIMITED,
				"The rate limit " + decision.policy().describe() + " is used up; retry in " + retryAfter + " s",
				List.of(), Map.of(HttpHeaders.RETRY_AFTER, String.valueOf(retryAfter)));
	}

	/** The public API, whose every answer carries the rate-limit headers. */
	static boolean isApi(ServerWebExchange exchange) {
		return RequestPaths.isUnder(exchange, "/api/v1");
	}

	static boolean isRegistration(ServerWebExchange exchange) {
		return RequestPaths.isRegistration(exchange);
	}

	private Counter counter(Decision decision) {
		String outcome = decision.allowed() ? "allowed" : "limited";
		return this.counters.computeIfAbsent(decision.policy().name() + "/" + outcome,
				(key) -> Counter.builder("ratelimit.decisions")
					.description("Requests taken (allowed) or refused (limited) under a rate-limit policy")
					.tag("policy", decision.policy().name())
					.tag("outcome", outcome)
					.register(this.meters));
	}

}
