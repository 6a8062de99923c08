package com.healthpartner.api.web;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.edge.ClientWaits;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * A deadline for every answer of {@code /api} and {@code /admin}. Connecting, waiting for
 * a pooled connection and each statement have limits of their own, but PostgreSQL
 * enforces its statement timeout itself: a database that stops answering without closing
 * the connection (a frozen server, a network that drops packets) would otherwise keep a
 * request waiting for as long as TCP takes to notice, hours. Past the deadline the answer
 * is {@code 503}. NDJSON exports are exempt: they stream for as long as the client reads,
 * bounded by their own limits in the database ({@code APP_DATABASE_EXPORT_TIMEOUT}). The
 * deadline is a task of the request's own event loop ({@link LoopTimer}).
 */
@Component
public class Deadline {

	private final Duration deadline;

	public Deadline(@Value("${app.request-timeout:10s}") Duration deadline) {
		if (deadline.isNegative() || deadline.isZero()) {
			throw new IllegalArgumentException("APP_REQUEST_TIMEOUT must be a positive duration such as 10s");
		}
		this.deadline = deadline;
	}

	/**
	 * {@code work}, ended if it has not finished by the deadline: with a {@code 408} if
	 * the request's body is still being waited for (the client is late), otherwise with a
	 * {@code 503}.
	 */
	public Mono<Void> bound(ServerWebExchange exchange, Mono<Void> work) {
		// with a fallback, Reactor builds no description of the timeout (which names
		// every operator of the request's chain at each subscription); the fallback
		// fails as the timeout itself would
		return work.timeout(LoopTimer.after(this.deadline), Mono.error(TimeoutException::new))
			.onErrorMap(TimeoutException.class,
					(timeout) -> ClientWaits.waitingForBody(exchange) ? clientLate() : databaseLate());
	}

	private ApiException clientLate() {
		return new ApiException(ProblemType.REQUEST_TIMEOUT,
				"The request body did not arrive whole within " + this.deadline.toSeconds()
						+ " s; nothing was written. The connection is closed.",
				List.of(), Map.of(HttpHeaders.CONNECTION, "close"));
	}

	private ApiException databaseLate() {
		return new ApiException(ProblemType.SERVICE_UNAVAILABLE,
				"The request did not finish within " + this.deadline.toSeconds()
						+ " s: the database is not answering. A write may or may not have been stored: "
						+ "retry with the same Idempotency-Key.",
				List.of(), Map.of(HttpHeaders.RETRY_AFTER, "5"));
	}

	/** Whether the request asks for an NDJSON export, which has no deadline. */
	public static boolean isExport(ServerWebExchange exchange) {
		String accept = exchange.getRequest().getHeaders().getFirst(HttpHeaders.ACCEPT);
		// only a header that names NDJSON is parsed (most name JSON or nothing)
		if (accept == null || !accept.toLowerCase(Locale.ROOT).contains("ndjson")) {
			return false;
		}
		try {
			return exchange.getRequest()
				.getHeaders()
				.getAccept()
				.stream()
				.anyMatch(MediaType.APPLICATION_NDJSON::equalsTypeAndSubtype);
		}
		catch (RuntimeException ex) {
			// an unreadable Accept: the route answers 406 or JSON, both bounded
			return false;
		}
	}

}
