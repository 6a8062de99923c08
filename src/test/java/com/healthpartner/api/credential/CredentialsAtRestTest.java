package com.healthpartner.api.credential;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys are stored as a hash and a display prefix, secrets encrypted; neither reaches a
 * log line.
 */
@ExtendWith(OutputCaptureExtension.class)
class CredentialsAtRestTest extends IntegrationTest {

	@Autowired
	DatabaseClient db;

	@Autowired
	SecretCipher cipher;

	@Test
	void theDatabaseHoldsNoKeyOrSecretInClear() {
		Credentials partner = this.partners.onboard();
		this.client.get().uri("/api/v1/auth/me").header("x-api-key", partner.apiKey()).exchange().expectStatus().isOk();

		this.db.sql(
				"select key_hash, prefix, secret_ciphertext, api_keys::text as row_text from api_keys where partner_id = :id")
			.bind("id", java.util.UUID.fromString(partner.partnerId()))
			.map((row) -> Map.of("hash", row.get("key_hash", byte[].class), "prefix", row.get("prefix", String.class),
					"secret", row.get("secret_ciphertext", byte[].class), "text", row.get("row_text", String.class)))
			.one()
			.as(StepVerifier::create)
			.assertNext((row) -> {
				assertThat((byte[]) row.get("hash"))
					.isEqualTo(com.healthpartner.api.credential.Credentials.hash(partner.apiKey()));
				assertThat((String) row.get("prefix")).isEqualTo(partner.apiKey().substring(0, 12));
				byte[] stored = (byte[]) row.get("secret");
				assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain(partner.apiSecret());
				assertThat(this.cipher.decrypt(stored)).isEqualTo(partner.apiSecret());
				assertThat((String) row.get("text")).doesNotContain(partner.apiKey())
					.doesNotContain(partner.apiKey().substring(4))
					.doesNotContain(partner.apiSecret().substring(4));
			})
			.verifyComplete();
	}

	@Test
	void noLogLineHoldsAKeyOrSecret(CapturedOutput output) {
		Credentials partner = this.partners.onboard();
		Credentials rotated = this.partners.issueKey(partner.partnerId(), Map.of());
		for (String key : List.of(partner.apiKey(), rotated.apiKey(), "hpk_" + "0".repeat(32))) {
			this.client.get().uri("/api/v1/auth/me").header("x-api-key", key).exchange();
		}
		this.client.get().uri("/admin/v1/partners").header("Authorization", "Bearer " + partner.apiSecret()).exchange();
		assertThat(output.getAll()).contains("request_id=")
			.doesNotContain(partner.apiKey())
			.doesNotContain(partner.apiSecret())
			.doesNotContain(rotated.apiKey())
			.doesNotContain(rotated.apiSecret())
			.doesNotContain(ADMIN_TOKEN);
	}

}
