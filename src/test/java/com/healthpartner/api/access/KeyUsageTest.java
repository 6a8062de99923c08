package com.healthpartner.api.access;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key's {@code last_used_at} records the requests it was used for; a request refused by
 * the rate limit was not served and leaves no trace.
 */
class KeyUsageTest extends IntegrationTest {

	@Autowired
	private KeyUsage usage;

	@Test
	void aRequestRefusedByTheRateLimitIsNotAUseOfTheKey() {
		Credentials partner = this.partners.onboard();
		for (int i = 0; i < 60; i++) {
			me(partner, 200);
		}
		this.usage.flush().as(StepVerifier::create).verifyComplete();
		Instant lastServed = lastUsed(partner);
		assertThat(lastServed).isNotNull();
		this.clock.advance(Duration.ofSeconds(10));
		me(partner, 429);
		this.usage.flush().as(StepVerifier::create).verifyComplete();
		assertThat(lastUsed(partner)).isEqualTo(lastServed);
	}

	private void me(Credentials partner, int status) {
		this.client.get()
			.uri("/api/v1/auth/me")
			.header("x-api-key", partner.apiKey())
			.exchange()
			.expectStatus()
			.isEqualTo(status);
	}

	private Instant lastUsed(Credentials partner) {
		Map<?, ?> view = Partners.admin(this.client.get().uri("/admin/v1/partners/{id}", partner.partnerId()))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(Map.class)
			.returnResult()
			.getResponseBody();
		Object at = ((Map<?, ?>) ((List<?>) view.get("keys")).get(0)).get("last_used_at");
		return (at != null) ? Instant.parse((String) at) : null;
	}

}
