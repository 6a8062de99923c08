package com.healthpartner.api.audit;

import reactor.core.publisher.Flux;

import org.springframework.web.reactive.function.server.ServerRequest;

import com.healthpartner.api.access.ApiPrincipal;

/**
 * Where health-data handlers report every access: who (the request's partner and key)
 * read or wrote how many records of which user. Reads are reported without waiting for
 * the database (written in batches); a write's event is written by the write's own
 * statement ({@link AuditActor}).
 */
public interface AuditTrail {

	/** {@code count} records of {@code userId} were read in answer to {@code request}. */
	void read(ServerRequest request, String resource, String userId, long count);

	/**
	 * {@link #read(ServerRequest, String, String, long)}, the request's partner, key and
	 * id taken before its records were read: a page's handler reads them as it starts,
	 * while the exchange's attributes are still in the processor's cache, rather than
	 * once more after the database answered.
	 */
	void read(ApiPrincipal principal, String requestId, String resource, String userId, long count);

	/**
	 * Streams {@code records} and, when the stream ends (completed, failed or cancelled
	 * by the client), reports how many were sent.
	 */
	<T> Flux<T> reading(ServerRequest request, String resource, String userId, Flux<T> records);

}
