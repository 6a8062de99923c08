package com.healthpartner.api.access;

import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ApiPrincipalTest {

	private final UUID partnerId = UUID.fromString("6f1d2c3b-4a5e-4f60-8172-93a4b5c6d7e8");

	@Test
	void thePartnerIdsTextIsMadeFromTheId() {
		ApiPrincipal principal = new ApiPrincipal(this.partnerId, "Iron Gym", "default", PartnerStatus.ACTIVE,
				UUID.randomUUID(), Set.of(Scope.METRICS_READ), false, null, null);

		assertThat(principal.partnerIdText()).isEqualTo("6f1d2c3b-4a5e-4f60-8172-93a4b5c6d7e8");
	}

	@Test
	void aTextThatIsNotTheIdsIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ApiPrincipal(this.partnerId, "Iron Gym", "default", PartnerStatus.ACTIVE,
					UUID.randomUUID(), Set.of(Scope.METRICS_READ), false, null, null,
					"00000000-0000-0000-0000-000000000000"))
			.withMessageContaining(this.partnerId.toString());
	}

}
