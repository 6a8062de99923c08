package com.healthpartner.api.access;

import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ApiPrincipalTest {

	private final UUID partnerId = UUID.fromString("6f1d2c3b-4a5e-4f60-8172-93a4b5c6d7e8");

	private final UUID keyId = UUID.fromString("0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9");

	private ApiPrincipal principal(byte[] secret) {
		return new ApiPrincipal(this.partnerId, "Iron Gym", "default", PartnerStatus.ACTIVE, this.keyId,
				Set.of(Scope.METRICS_READ), false, null, secret);
	}

	@Test
	void thePartnerIdsTextIsMadeFromTheIdOnce() {
		ApiPrincipal principal = principal(null);

		assertThat(principal.partnerIdText()).isEqualTo("6f1d2c3b-4a5e-4f60-8172-93a4b5c6d7e8");
		assertThat(principal.partnerIdText()).isSameAs(principal.partnerIdText());
	}

	@Test
	void itsTextNamesThePartnerAndKeyButNotTheSecret() {
		assertThat(principal(new byte[] { 1, 2, 3 })).hasToString("ApiPrincipal[partnerId=" + this.partnerId
				+ ", partnerName=Iron Gym, plan=default, status=ACTIVE, keyId=" + this.keyId
				+ ", scopes=[METRICS_READ], signingRequired=false, expiresAt=null]");
	}

}
