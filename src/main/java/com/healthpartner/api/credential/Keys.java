package com.healthpartner.api.credential;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

/**
 * What the partner feature does with API keys: issue a key and its secret (stored as a
 * hash, a display prefix and AES-GCM ciphertext; the clear key and secret leave here
 * once, in the answer), list a partner's keys, revoke one. Runs in the caller's
 * transaction.
 */
@Component
public class Keys {

	private final KeyRepository keys;

	private final SecretCipher cipher;

	Keys(KeyRepository keys, SecretCipher cipher) {
		this.keys = keys;
		this.cipher = cipher;
	}

	public Mono<IssuedKey> issue(UUID partnerId, List<String> scopes, Instant expiresAt, Instant now) {
		String apiKey = Credentials.newApiKey();
		String secret = Credentials.newSecret();
		KeyRow key = new KeyRow(UUID.randomUUID(), partnerId, Credentials.hash(apiKey),
				Credentials.displayPrefix(apiKey), this.cipher.encrypt(secret), scopes, now, null, expiresAt, null);
		return this.keys.insert(key).thenReturn(new IssuedKey(key.id(), apiKey, secret));
	}

	public Flux<KeyRow> ofPartner(UUID partnerId) {
		return this.keys.findByPartner(partnerId);
	}

	/** The keys of several partners, in one query. */
	public Flux<KeyRow> ofPartners(List<UUID> partnerIds) {
		return this.keys.findByPartners(partnerIds);
	}

	/** Empty when the partner has no such key; revoking twice keeps the first time. */
	public Mono<KeyRow> revoke(UUID partnerId, UUID keyId, Instant at) {
		return this.keys.revoke(partnerId, keyId, at);
	}

	/** A key just issued: the clear key and secret, shown to the administrator once. */
	public record IssuedKey(UUID keyId, String apiKey, String secret) {
	}

}
