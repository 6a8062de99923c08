package com.healthpartner.api.access;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * The partner and key behind a request, as resolved by the access filter. {@code scopes}
 * are the key's scopes bounded by the partner's. The secret stays encrypted until a
 * signature is checked. {@code partnerIdText} is the text of {@code partnerId}, made once
 * when the key is resolved (the key cache keeps the principal) for every request's access
 * log line, instead of a {@code UUID.toString} on each; a text that is not the id's is
 * refused.
 */
public record ApiPrincipal(UUID partnerId, String partnerName, String plan, PartnerStatus status, UUID keyId,
		Set<Scope> scopes, boolean signingRequired, Instant expiresAt, byte[] secretCiphertext, String partnerIdText) {

	public static final String ATTRIBUTE = ApiPrincipal.class.getName();

	public ApiPrincipal {
		if (!partnerId.toString().equals(partnerIdText)) {
			throw new IllegalArgumentException("partnerIdText is not the text of partnerId " + partnerId);
		}
	}

	public ApiPrincipal(UUID partnerId, String partnerName, String plan, PartnerStatus status, UUID keyId,
			Set<Scope> scopes, boolean signingRequired, Instant expiresAt, byte[] secretCiphertext) {
		this(partnerId, partnerName, plan, status, keyId, scopes, signingRequired, expiresAt, secretCiphertext,
				partnerId.toString());
	}

	public boolean active() {
		return this.status == PartnerStatus.ACTIVE;
	}

	public boolean expiredAt(Instant now) {
		return this.expiresAt != null && !now.isBefore(this.expiresAt);
	}

}
