package com.healthpartner.api.access;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An administrator's change made through one instance closes access on another instance
 * that had the key cached: PostgreSQL NOTIFY reaches it within milliseconds, long before
 * its cache expires.
 */
class AccessChangesAcrossInstancesIT extends IntegrationTest {

	private static ServiceInstance other;

	@BeforeAll
	static void startSecondInstance() {
		other = ServiceInstance.start(Map.of());
		// the point is that the other instance serves keys from its cache: wait until it
		// trusts it
		KeyCache cache = other.context().getBean(KeyCache.class);
		assertThat(eventually(Duration.ofSeconds(10), cache::listening)).isTrue();
	}

	@AfterAll
	static void stopSecondInstance() {
		other.close();
	}

	@Test
	void aKeyRevokedHereIsRefusedThereAlthoughThereItWasCached() {
		Credentials partner = this.partners.onboard();
		meThere(partner.apiKey(), 200);
		this.client.delete()
			.uri("/admin/v1/partners/{id}/keys/{key}", partner.partnerId(), partner.keyId())
			.header("Authorization", "Bearer " + ADMIN_TOKEN)
			.exchange()
			.expectStatus()
			.isNoContent();
		assertThat(eventually(Duration.ofSeconds(2), () -> statusThere(partner.apiKey()) == 401)).isTrue();
	}

	@Test
	void aSuspensionHereIsEnforcedThere() {
		Credentials partner = this.partners.onboard();
		meThere(partner.apiKey(), 200);
		this.partners.patch(partner.partnerId(), Map.of("status", "suspended"));
		assertThat(eventually(Duration.ofSeconds(2), () -> statusThere(partner.apiKey()) == 403)).isTrue();
	}

	private void meThere(String apiKey, int status) {
		assertThat(statusThere(apiKey)).isEqualTo(status);
	}

	private int statusThere(String apiKey) {
		return Partners.meStatus(other.client(), apiKey);
	}

}
