package com.healthpartner.api.partner;

import java.util.Set;
import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.json.JsonFields;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.Paging;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.ratelimit.Plans;

/**
 * Administrator: list, approve and reject registrations.
 */
@Component
class AdminRegistrationHandler {

	private final JsonBodies bodies;

	private final Onboarding onboarding;

	private final RegistrationRepository registrations;

	private final Cursors cursors;

	private final Plans plans;

	AdminRegistrationHandler(JsonBodies bodies, Onboarding onboarding, RegistrationRepository registrations,
			Cursors cursors, Plans plans) {
		this.bodies = bodies;
		this.onboarding = onboarding;
		this.registrations = registrations;
		this.cursors = cursors;
		this.plans = plans;
	}

	Mono<ServerResponse> list(ServerRequest request) {
		FieldErrors errors = new FieldErrors();
		String statusText = request.queryParam("status").orElse(null);
		RegistrationStatus status = (statusText != null) ? RegistrationStatus.of(statusText).orElse(null) : null;
		if (statusText != null && status == null) {
			errors.add("status", "must be pending, approved or rejected");
		}
		int limit = Paging.limit(request, errors);
		errors.throwIfAny();
		String query = "registrations|" + statusText;
		Cursors.Position after = request.queryParam("cursor").map((c) -> this.cursors.decode(query, c)).orElse(null);
		return this.registrations.list(status, after, limit + 1)
			.collectList()
			.map((rows) -> Paging.page(rows, limit, Views.AdminRegistration::of, RegistrationRow::createdAt,
					RegistrationRow::id, this.cursors, query))
			.flatMap((page) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(page));
	}

	Mono<ServerResponse> approve(ServerRequest request) {
		UUID id = AdminRequests.id(request.pathVariable("id"), "registration");
		return this.bodies.readOptionalObject(request).flatMap((body) -> {
			FieldErrors errors = new FieldErrors();
			JsonFields.rejectUnknown(body, Set.of("plan", "scopes"), errors);
			String plan = AdminRequests.plan(body, this.plans, errors);
			Set<Scope> scopes = AdminRequests.scopes(body, errors).orElse(Scope.all());
			errors.throwIfAny();
			return this.onboarding.approve(id, (plan != null) ? plan : "default", scopes);
		})
			.flatMap((issued) -> ServerResponse.status(HttpStatus.CREATED)
				.header(HttpHeaders.LOCATION, "/admin/v1/partners/" + issued.partnerId())
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(issued));
	}

	Mono<ServerResponse> reject(ServerRequest request) {
		UUID id = AdminRequests.id(request.pathVariable("id"), "registration");
		return this.bodies.readOptionalObject(request).flatMap((body) -> {
			FieldErrors errors = new FieldErrors();
			JsonFields.rejectUnknown(body, Set.of("reason"), errors);
			String reason = JsonFields.optionalText(body, "reason", 1, 1000, errors);
			errors.throwIfAny();
			return this.onboarding.reject(id, reason);
		})
			.flatMap((row) -> ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Views.AdminRegistration.of(row)));
	}

}
