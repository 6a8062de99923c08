package com.healthpartner.api.webhook;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.spec.SecretKeySpec;

import com.healthpartner.api.crypto.Digests;

/**
 * Endpoint secrets and the Standard Webhooks signature: a secret is {@code whsec_} and
 * the base64 of 32 random bytes, the key those bytes; a signature is {@code v1,} and the
 * base64 of HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}").
 */
final class WebhookSecrets {

	static final String PREFIX = "whsec_";

	private static final SecureRandom RANDOM = new SecureRandom();

	private WebhookSecrets() {
	}

	static String generate() {
		byte[] key = new byte[32];
		RANDOM.nextBytes(key);
		return PREFIX + Base64.getEncoder().encodeToString(key);
	}

	/** The HMAC key of a secret ({@code whsec_…}). */
	static SecretKeySpec key(String secret) {
		return Digests.hmacKey(Base64.getDecoder().decode(secret.substring(PREFIX.length())));
	}

	static String sign(SecretKeySpec key, String messageId, long timestamp, String body) {
		byte[] mac = Digests.hmacSha256(key,
				(messageId + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
		return "v1," + Base64.getEncoder().encodeToString(mac);
	}

}
