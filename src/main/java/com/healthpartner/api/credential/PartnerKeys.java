package com.healthpartner.api.credential;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.KeyLookup;

/**
 * The partner feature's side of the access layer's {@link KeyLookup} port: keys from the
 * key table, secrets decrypted with the service's key.
 */
@Component
class PartnerKeys implements KeyLookup {

	private final KeyRepository keys;

	private final SecretCipher cipher;

	PartnerKeys(KeyRepository keys, SecretCipher cipher) {
		this.keys = keys;
		this.cipher = cipher;
	}

	@Override
	public Mono<ApiPrincipal> findByHash(byte[] keyHash) {
		return this.keys.findByHash(keyHash);
	}

	@Override
	public Mono<Void> recordUse(Map<UUID, Instant> lastUsed) {
		return this.keys.recordUse(lastUsed);
	}

	@Override
	public String decryptSecret(byte[] secretCiphertext) {
		return this.cipher.decrypt(secretCiphertext);
	}

}
