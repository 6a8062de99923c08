package com.healthpartner.api.problem;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;

import org.springframework.boot.webflux.error.ErrorWebExceptionHandler;
import org.springframework.core.annotation.Order;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ContentTooLargeException;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;

/**
 * The one place where every failure, from handlers, filters and the framework, becomes an
 * RFC 9457 problem+json answer with a stable {@code code} and the request id. Stack
 * traces and SQL stay in the log.
 */
@Component
@Order(-2)
class ProblemHandler implements ErrorWebExceptionHandler {

	private static final Log log = LogFactory.getLog(ProblemHandler.class);

	private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final AtomicLong nextUnavailableWarning = new AtomicLong(System.nanoTime());

	private final AtomicLong unavailableUnlogged = new AtomicLong();

	private static final MediaType PROBLEM_JSON = MediaType.APPLICATION_PROBLEM_JSON;

	private static final HttpStatusCode CLIENT_CLOSED_REQUEST = HttpStatusCode.valueOf(499);

	private final ProblemWriter writer;

	ProblemHandler(ProblemWriter writer) {
		this.writer = writer;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
		if (ClientAborts.isClientAbort(failure) && !DatabaseFailures.isUnavailable(failure)) {
			// nobody to answer: 499 (a client that closed its request) is for the access
			// log
			// and the request metrics only
			if (log.isDebugEnabled()) {
				log.debug("Client went away during request " + RequestIds.of(exchange) + ": " + failure);
			}
			exchange.getResponse().setStatusCode(CLIENT_CLOSED_REQUEST);
			return Mono.empty();
		}
		if (exchange.getResponse().isCommitted()) {
			return Mono.error(failure);
		}
		return this.writer.write(exchange, toProblem(exchange, failure));
	}

	private ApiException toProblem(ServerWebExchange exchange, Throwable failure) {
		if (failure instanceof ApiException api) {
			return api;
		}
		if (failure instanceof MethodNotAllowedException notAllowed) {
			return ApiException.methodNotAllowed(notAllowed.getSupportedMethods());
		}
		if (failure instanceof UnsupportedMediaTypeStatusException) {
			return new ApiException(ProblemType.UNSUPPORTED_MEDIA_TYPE, "Send the body as application/json");
		}
		if (failure instanceof NotAcceptableStatusException) {
			return new ApiException(ProblemType.NOT_ACCEPTABLE, "This route answers application/json");
		}
		if (failure instanceof ContentTooLargeException || failure instanceof DataBufferLimitException
				|| failure.getCause() instanceof DataBufferLimitException) {
			return new ApiException(ProblemType.PAYLOAD_TOO_LARGE, "The request body is over the size limit");
		}
		if (failure instanceof ServerWebInputException input) {
			if (input.getCause() instanceof DecodingException || input.getCause() instanceof JacksonException) {
				return new ApiException(ProblemType.MALFORMED_JSON, "The request body is not valid JSON");
			}
			return new ApiException(ProblemType.VALIDATION_FAILED, input.getReason());
		}
		if (failure instanceof ResponseStatusException status) {
			if (status.getStatusCode().value() == 404) {
				return ApiException.notFound("No route matches " + exchange.getRequest().getPath().value());
			}
			if (status.getStatusCode().is4xxClientError()) {
				return new ApiException(ProblemType.VALIDATION_FAILED, status.getReason());
			}
		}
		if (DatabaseFailures.isUnavailable(failure)) {
			warnRetryable("Database unavailable", exchange, failure);
			return new ApiException(ProblemType.SERVICE_UNAVAILABLE,
					"The database cannot be reached; nothing was written. Retry shortly.", List.of(),
					Map.of(HttpHeaders.RETRY_AFTER, "5"));
		}
		if (DatabaseFailures.isConflict(failure)) {
			warnRetryable("Transaction undone by the database (a concurrent one)", exchange, failure);
			return new ApiException(ProblemType.SERVICE_UNAVAILABLE,
					"The write met a concurrent one in the database and was undone; nothing was written. Retry.",
					List.of(), Map.of(HttpHeaders.RETRY_AFTER, "1"));
		}
		log.error("Unexpected failure of request " + RequestIds.of(exchange), failure);
		return new ApiException(ProblemType.INTERNAL_ERROR, "An unexpected error occurred");
	}

	/**
	 * One line a second at most: in an outage or a surge every refused request would
	 * otherwise write one, and the lines would take the time of the requests that can
	 * still be served (the access log has every request's status and id).
	 */
	private void warnRetryable(String what, ServerWebExchange exchange, Throwable failure) {
		long now = System.nanoTime();
		long next = this.nextUnavailableWarning.get();
		if (now - next < 0 || !this.nextUnavailableWarning.compareAndSet(next, now + WARN_EVERY_NANOS)) {
			this.unavailableUnlogged.incrementAndGet();
			return;
		}
		long more = this.unavailableUnlogged.getAndSet(0);
		log.warn(what + " for request " + RequestIds.of(exchange) + ": " + failure + ((more > 0)
				? " (and " + more + " more 503s of the database, of either kind, since the last such line)" : ""));
	}

}
