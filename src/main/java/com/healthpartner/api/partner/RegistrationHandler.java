package com.healthpartner.api.partner;

import java.util.Set;
import java.util.regex.Pattern;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.json.JsonFields;
import com.healthpartner.api.problem.FieldErrors;

/**
 * {@code POST /api/v1/auth}: a partner organisation asks for access.
 */
@Component
class RegistrationHandler {

	private static final Pattern EMAIL = Pattern.compile("^[^@\\s]{1,64}@[^@\\s]+\\.[^@\\s]+$");

	private final JsonBodies bodies;

	private final Onboarding onboarding;

	RegistrationHandler(JsonBodies bodies, Onboarding onboarding) {
		this.bodies = bodies;
		this.onboarding = onboarding;
	}

	Mono<ServerResponse> register(ServerRequest request) {
		return this.bodies.readObject(request).flatMap((body) -> {
			FieldErrors errors = new FieldErrors();
			JsonFields.rejectUnknown(body, Set.of("email", "partner_name"), errors);
			String email = JsonFields.requiredText(body, "email", 1, 254, errors);
			if (email != null && !EMAIL.matcher(email).matches()) {
				errors.add("email", "must be a valid email address");
			}
			String partnerName = JsonFields.requiredText(body, "partner_name", 1, 200, errors);
			errors.throwIfAny();
			return this.onboarding.register(email, partnerName);
		})
			.flatMap((row) -> ServerResponse.status(HttpStatus.ACCEPTED)
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Views.Registration.of(row)));
	}

}
