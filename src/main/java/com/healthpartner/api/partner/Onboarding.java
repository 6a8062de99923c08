package com.healthpartner.api.partner;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.access.AccessInvalidation;
import com.healthpartner.api.access.PartnerStatus;
import com.healthpartner.api.access.Scope;
import com.healthpartner.api.credential.KeyRow;
import com.healthpartner.api.credential.Keys;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * The steps of onboarding that span registrations, partners and keys, each in one
 * transaction. Changes that affect access are announced with {@code NOTIFY} inside the
 * transaction and applied to this instance's cache before the administrator gets the
 * answer.
 */
@Service
class Onboarding {

	private final RegistrationRepository registrations;

	private final PartnerRepository partners;

	private final Keys keys;

	private final AccessInvalidation access;

	private final TransactionalOperator transaction;

	private final Clock clock;

	Onboarding(RegistrationRepository registrations, PartnerRepository partners, Keys keys, AccessInvalidation access,
			TransactionalOperator transaction, Clock clock) {
		this.registrations = registrations;
		this.partners = partners;
		this.keys = keys;
		this.access = access;
		this.transaction = transaction;
		this.clock = clock;
	}

	Mono<RegistrationRow> register(String email, String partnerName) {
		Instant now = now();
		return this.registrations.insert(new RegistrationRow(UUID.randomUUID(), email, partnerName,
				RegistrationStatus.PENDING, null, null, now, null));
	}

	Mono<Views.IssuedCredentials> approve(UUID registrationId, String plan, Set<Scope> scopes) {
		Instant now = now();
		UUID partnerId = UUID.randomUUID();
		List<String> scopeValues = Scope.values(scopes);
		return this.registrations.decide(registrationId, RegistrationStatus.APPROVED, null, partnerId, now)
			.switchIfEmpty(notPending(registrationId))
			.flatMap((registration) -> this.partners
				.insert(new PartnerRow(partnerId, registration.id(), registration.partnerName(), registration.email(),
						plan, PartnerStatus.ACTIVE, scopeValues, false, now)))
			.flatMap((partner) -> issue(partner, scopeValues, null, now))
			.as(this.transaction::transactional);
	}

	Mono<RegistrationRow> reject(UUID registrationId, String reason) {
		return this.registrations.decide(registrationId, RegistrationStatus.REJECTED, reason, null, now())
			.switchIfEmpty(notPending(registrationId));
	}

	Mono<Views.IssuedCredentials> issueKey(UUID partnerId, Set<Scope> scopes, Instant expiresAt) {
		return this.partners.find(partnerId)
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("No partner " + partnerId)))
			.flatMap((partner) -> {
				List<String> wanted = (scopes != null) ? Scope.values(scopes) : partner.scopes();
				if (!partner.scopes().containsAll(wanted)) {
					return Mono.error(ApiException.invalidField("scopes",
							"must be within the partner's scopes " + partner.scopes().stream().sorted().toList()));
				}
				return issue(partner, wanted, expiresAt, now());
			});
	}

	Mono<KeyRow> revokeKey(UUID partnerId, UUID keyId) {
		return this.keys.revoke(partnerId, keyId, now())
			.flatMap((key) -> this.partners.notifyChanged(partnerId).thenReturn(key))
			.as(this.transaction::transactional)
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("Partner " + partnerId + " has no key " + keyId)))
			.flatMap((key) -> this.access.partnerChanged(partnerId).thenReturn(key));
	}

	Mono<PartnerRow> update(UUID partnerId, PartnerChange change) {
		return this.partners.update(partnerId, change)
			.as(this.transaction::transactional)
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("No partner " + partnerId)))
			.flatMap((row) -> this.access.partnerChanged(row.id()).thenReturn(row));
	}

	private Mono<Views.IssuedCredentials> issue(PartnerRow partner, List<String> scopes, Instant expiresAt,
			Instant now) {
		return this.keys.issue(partner.id(), scopes, expiresAt, now)
			.map((issued) -> new Views.IssuedCredentials(partner.id(), issued.keyId(), issued.apiKey(), issued.secret(),
					partner.plan(), scopes.stream().sorted().toList(), Timestamps.format(expiresAt)));
	}

	private <T> Mono<T> notPending(UUID registrationId) {
		return this.registrations.find(registrationId)
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("No registration " + registrationId)))
			.flatMap((registration) -> Mono.error(new ApiException(ProblemType.CONFLICT,
					"Registration " + registrationId + " is " + registration.status().value() + ", not pending")));
	}

	private Instant now() {
		return Timestamps.truncate(this.clock.instant());
	}

}
