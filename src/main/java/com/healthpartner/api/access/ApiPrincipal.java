package com.healthpartner.api.access;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * The partner and key behind a request, as resolved by the access filter. {@code scopes}
 * are the key's scopes bounded by the partner's. The secret stays encrypted until a
 * signature is checked.
 * <p>
 * A class, not a record, so that {@link #partnerIdText()} can be made once from
 * {@code partnerId} when the key is resolved (the key cache keeps the principal) rather
 * than held as a component a caller could set to another text: every request's access log
 * line reads it, and a {@code UUID.toString} on each would cost the event loop. Nothing
 * compares principals, so a principal equals only itself.
 */
public final class ApiPrincipal {

	public static final String ATTRIBUTE = ApiPrincipal.class.getName();

	private final UUID partnerId;

	private final String partnerName;

	private final String plan;

	private final PartnerStatus status;

	private final UUID keyId;

	private final Set<Scope> scopes;

	private final boolean signingRequired;

	private final Instant expiresAt;

	private final byte[] secretCiphertext;

	private final String partnerIdText;

	public ApiPrincipal(UUID partnerId, String partnerName, String plan, PartnerStatus status, UUID keyId,
			Set<Scope> scopes, boolean signingRequired, Instant expiresAt, byte[] secretCiphertext) {
		this.partnerId = Objects.requireNonNull(partnerId, "partnerId");
		this.partnerName = partnerName;
		this.plan = plan;
		this.status = status;
		this.keyId = keyId;
		this.scopes = scopes;
		this.signingRequired = signingRequired;
		this.expiresAt = expiresAt;
		this.secretCiphertext = secretCiphertext;
		this.partnerIdText = partnerId.toString();
	}

	public UUID partnerId() {
		return this.partnerId;
	}

	public String partnerName() {
		return this.partnerName;
	}

	public String plan() {
		return this.plan;
	}

	public PartnerStatus status() {
		return this.status;
	}

	public UUID keyId() {
		return this.keyId;
	}

	public Set<Scope> scopes() {
		return this.scopes;
	}

	public boolean signingRequired() {
		return this.signingRequired;
	}

	public Instant expiresAt() {
		return this.expiresAt;
	}

	public byte[] secretCiphertext() {
		return this.secretCiphertext;
	}

	/** The text of {@link #partnerId()}, made once. */
	public String partnerIdText() {
		return this.partnerIdText;
	}

	public boolean active() {
		return this.status == PartnerStatus.ACTIVE;
	}

	public boolean expiredAt(Instant now) {
		return this.expiresAt != null && !now.isBefore(this.expiresAt);
	}

	/** Names the partner and key; the secret's ciphertext is left out. */
	@Override
	public String toString() {
		return "ApiPrincipal[partnerId=" + this.partnerId + ", partnerName=" + this.partnerName + ", plan=" + this.plan
				+ ", status=" + this.status + ", keyId=" + this.keyId + ", scopes=" + this.scopes + ", signingRequired="
				+ this.signingRequired + ", expiresAt=" + this.expiresAt + "]";
	}

}
