package com.healthpartner.api.partner;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.PartnerStatus;
import com.healthpartner.api.access.Scope;
import com.healthpartner.api.credential.KeyRow;
import com.healthpartner.api.credential.Keys;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.json.JsonFields;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.Paging;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.ratelimit.Plans;

/**
 * Administrator: view and change partners, issue and revoke their keys.
 */
@Component
class AdminPartnerHandler {

	private final JsonBodies bodies;

	private final Onboarding onboarding;

	private final PartnerRepository partners;

	private final Keys keys;

	private final Cursors cursors;

	private final Plans plans;

	private final Clock clock;

	AdminPartnerHandler(JsonBodies bodies, Onboarding onboarding, PartnerRepository partners, Keys keys,
			Cursors cursors, Plans plans, Clock clock) {
		this.bodies = bodies;
		this.onboarding = onboarding;
		this.partners = partners;
		this.keys = keys;
		this.cursors = cursors;
		this.plans = plans;
		this.clock = clock;
	}

	Mono<ServerResponse> list(ServerRequest request) {
		FieldErrors errors = new FieldErrors();
		int limit = Paging.limit(request, errors);
		errors.throwIfAny();
		Cursors.Position after = request.queryParam("cursor")
			.map((c) -> this.cursors.decode("partners", c))
			.orElse(null);
		return this.partners.list(after, limit + 1)
			.collectList()
			.flatMap((rows) -> this.keys.ofPartners(rows.stream().map(PartnerRow::id).toList())
				.collectMultimap(KeyRow::partnerId)
				.map((keys) -> rows.stream()
					.map((row) -> new Listed(row, List.copyOf(keys.getOrDefault(row.id(), List.of()))))
					.toList()))
			.map((rows) -> Paging.page(rows, limit, (listed) -> Views.Partner.of(listed.row(), listed.keys()),
					(listed) -> listed.row().createdAt(), (listed) -> listed.row().id(), this.cursors, "partners"))
			.flatMap((page) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(page));
	}

	Mono<ServerResponse> get(ServerRequest request) {
		return find(request).flatMap(this::respond);
	}

	Mono<ServerResponse> update(ServerRequest request) {
		UUID partnerId = AdminRequests.id(request.pathVariable("id"), "partner");
		return this.bodies.readObject(request).flatMap((body) -> {
			FieldErrors errors = new FieldErrors();
			JsonFields.rejectUnknown(body, Set.of("plan", "scopes", "status", "signing_required"), errors);
			String plan = AdminRequests.plan(body, this.plans, errors);
			String statusText = JsonFields.optionalText(body, "status", 1, 16, errors);
			PartnerStatus status = (statusText != null) ? PartnerStatus.of(statusText).orElse(null) : null;
			if (statusText != null && status == null) {
				errors.add("status", "must be active or suspended");
			}
			List<String> scopes = AdminRequests.scopes(body, errors).map(Scope::values).orElse(null);
			Boolean signing = AdminRequests.bool(body, "signing_required", errors);
			errors.throwIfAny();
			return this.onboarding.update(partnerId, new PartnerChange(plan, scopes, status, signing));
		}).flatMap(this::respond);
	}

	Mono<ServerResponse> issueKey(ServerRequest request) {
		UUID partnerId = AdminRequests.id(request.pathVariable("id"), "partner");
		return this.bodies.readOptionalObject(request).flatMap((body) -> {
			FieldErrors errors = new FieldErrors();
			JsonFields.rejectUnknown(body, Set.of("scopes", "expires_at"), errors);
			Set<Scope> scopes = AdminRequests.scopes(body, errors).orElse(null);
			Instant expiresAt = AdminRequests.futureInstant(body, "expires_at", this.clock, errors);
			errors.throwIfAny();
			return this.onboarding.issueKey(partnerId, scopes, expiresAt);
		})
			.flatMap((issued) -> ServerResponse.status(HttpStatus.CREATED)
				.header(HttpHeaders.LOCATION, "/admin/v1/partners/" + partnerId)
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(issued));
	}

	Mono<ServerResponse> revokeKey(ServerRequest request) {
		UUID partnerId = AdminRequests.id(request.pathVariable("id"), "partner");
		UUID keyId = AdminRequests.id(request.pathVariable("keyId"), "key");
		return this.onboarding.revokeKey(partnerId, keyId).then(ServerResponse.noContent().build());
	}

	private Mono<PartnerRow> find(ServerRequest request) {
		UUID id = AdminRequests.id(request.pathVariable("id"), "partner");
		return this.partners.find(id).switchIfEmpty(Mono.error(() -> ApiException.notFound("No partner " + id)));
	}

	private Mono<ServerResponse> respond(PartnerRow partner) {
		return this.keys.ofPartner(partner.id())
			.collectList()
			.flatMap((keys) -> ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Views.Partner.of(partner, keys)));
	}

	private record Listed(PartnerRow row, List<KeyRow> keys) {
	}

}
