package com.healthpartner.api.signature;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import javax.crypto.spec.SecretKeySpec;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import org.springframework.stereotype.Component;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.KeyLookup;
import com.healthpartner.api.crypto.Digests;

/**
 * The HMAC key of each API key: its whole secret ({@code hps_...}) as UTF-8 bytes,
 * decrypted from the principal and kept briefly so that a partner signing every request
 * does not cost an AES-GCM decryption each time. A key's secret never changes (rotation
 * issues a new key), so the entry cannot go stale; it is never logged.
 */
@Component
class SigningKeys {

	private final Cache<UUID, SecretKeySpec> keys = Caffeine.newBuilder()
		.expireAfterAccess(Duration.ofMinutes(10))
		.maximumSize(10_000)
		.build();

	private final KeyLookup lookup;

	SigningKeys(KeyLookup lookup) {
		this.lookup = lookup;
	}

	SecretKeySpec of(ApiPrincipal principal) {
		return this.keys.get(principal.keyId(), (keyId) -> Digests
			.hmacKey(this.lookup.decryptSecret(principal.secretCiphertext()).getBytes(StandardCharsets.UTF_8)));
	}

}
