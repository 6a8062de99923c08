package com.healthpartner.api.web;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import com.healthpartner.api.edge.ClientWaits;
import com.healthpartner.api.edge.EdgeProperties;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * A deadline for every answer of {@code /api} and {@code /admin}:
 * {@code APP_REQUEST_TIMEOUT} (2.5 s) from the request's arrival, so that a partner has
 * an answer within 3 s even while the database is gone, whatever the request waits for (a
 * pooled connection, a shared statement, a statement on a connection that stopped
 * answering). Past it the answer is {@code 503} with {@code Retry-After}. Time spent
 * waiting for a body the client is still sending is the client's, not the database's:
 * such a request gets until {@code APP_HTTP_REQUEST_READ_TIMEOUT} (10 s), and a
 * {@code 408} if its body is still missing then. NDJSON exports are exempt: they stream
 * for as long as the client reads, bounded by their own limits in the database
 * ({@code APP_DATABASE_EXPORT_TIMEOUT}); so is the upload of an import, answered once its
 * body is stored ({@link com.healthpartner.api.json.BodyLimits#streamed}). The deadline
 * is a task of the request's own event loop ({@link LoopTimer}).
 */
@Component
public class Deadline {

	private final Duration deadline;

	private final Duration bodyDeadline;

	@Autowired
	public Deadline(@Value("${app.request-timeout:2500ms}") Duration deadline, EdgeProperties edge) {
		this(deadline, edge.requestReadTimeout());
	}

	/**
	 * Answers by {@code deadline}, or by {@code bodyDeadline} for a request whose body is
	 * still arriving at its deadline.
	 */
	public Deadline(Duration deadline, Duration bodyDeadline) {
		if (deadline.isNegative() || deadline.isZero()) {
			throw new IllegalArgumentException("APP_REQUEST_TIMEOUT must be a positive duration such as 2500ms");
		}
		this.deadline = deadline;
		this.bodyDeadline = (bodyDeadline.compareTo(deadline) > 0) ? bodyDeadline : deadline;
	}

	/**
	 * {@code work}, ended if it has not finished by the deadline: with a {@code 408} if
	 * the request's body is still being waited for at the body's deadline (the client is
	 * late), otherwise with a {@code 503}.
	 */
	public Mono<Void> bound(ServerWebExchange exchange, Mono<Void> work) {
		Duration more = this.bodyDeadline.minus(this.deadline);
		Mono<Long> passed = LoopTimer.after(this.deadline)
			.flatMap((tick) -> (!more.isZero() && ClientWaits.waitingForBody(exchange)) ? LoopTimer.after(more)
					: Mono.just(tick));
		// with a fallback, Reactor builds no description of the timeout (which names
		// every operator of the request's chain at each subscription); the fallback
		// fails as the timeout itself would
		return work.timeout(passed, Mono.error(TimeoutException::new))
			.onErrorMap(TimeoutException.class,
					(timeout) -> ClientWaits.waitingForBody(exchange) ? clientLate() : databaseLate());
	}

	private ApiException clientLate() {
		return new ApiException(ProblemType.REQUEST_TIMEOUT,
				"The request body did not arrive whole within " + this.bodyDeadline.toSeconds()
						+ " s; nothing was written. The connection is closed.",
				List.of(), Map.of(HttpHeaders.CONNECTION, "close"));
	}

	private ApiException databaseLate() {
		return new ApiException(ProblemType.SERVICE_UNAVAILABLE,
				"The request did not finish within " + this.deadline.toMillis()
						+ " ms: the database is not answering. A write may or may not have been stored: "
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
