package com.healthpartner.api.erasure;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Principals;
import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.json.RecordIds;
import com.healthpartner.api.json.UserIds;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.web.BytesBody;

/**
 * {@code DELETE /api/v1/health/users/{user_id}} erases a user's records, answered
 * {@code 202} while the deletion runs in the background; {@code GET
 * /api/v1/health/erasures/{id}} shows its progress. The answer is the same whether the
 * user had records or not.
 */
@Component
class ErasureHandler {

	static final String USERS = "/api/v1/health/users";

	static final String ERASURES = "/api/v1/health/erasures";

	private final ErasureRepository erasures;

	private final ErasureWorker worker;

	private final Listings listings;

	private final Clock clock;

	ErasureHandler(ErasureRepository erasures, ErasureWorker worker, Listings listings, Clock clock) {
		this.erasures = erasures;
		this.worker = worker;
		this.listings = listings;
		this.clock = clock;
	}

	Mono<ServerResponse> erase(ServerRequest request) {
		FieldErrors errors = new FieldErrors();
		String userId = UserIds.fromPath(request.pathVariable("user_id"), errors);
		errors.throwIfAny();
		UUID partnerId = Principals.of(request).partnerId();
		return this.erasures.request(Ids.random(), partnerId, userId, AuditActor.of(request, this.clock.instant()))
			.doOnNext((erasure) -> this.worker.wake())
			.flatMap((erasure) -> ServerResponse.status(HttpStatus.ACCEPTED)
				.header(HttpHeaders.LOCATION, ERASURES + "/" + erasure.id())
				.contentType(MediaType.APPLICATION_JSON)
				.body(BytesBody.of(new ErasureView(erasure).toJson().getBytes(StandardCharsets.UTF_8))));
	}

	Mono<ServerResponse> get(ServerRequest request) {
		UUID id = RecordIds.parse(request.pathVariable("id"), "erasure");
		return this.erasures.find(Principals.of(request).partnerId(), id)
			.switchIfEmpty(Mono.error(() -> RecordIds.notFound("erasure", id)))
			.flatMap((erasure) -> this.listings.one(new ErasureView(erasure)));
	}

}
