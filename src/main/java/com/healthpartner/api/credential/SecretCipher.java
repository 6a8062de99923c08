package com.healthpartner.api.credential;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.stereotype.Component;

import com.healthpartner.api.system.AppProperties;

/**
 * AES-GCM for partner secrets at rest. The server must verify HMAC signatures, so secrets
 * are encrypted, never hashed. Stored form: 12-byte nonce followed by ciphertext and tag.
 */
@Component
public class SecretCipher {

	private static final int NONCE_BYTES = 12;

	private static final int TAG_BITS = 128;

	private final SecretKeySpec key;

	private final SecureRandom random = new SecureRandom();

	SecretCipher(AppProperties properties) {
		this.key = new SecretKeySpec(properties.secretEncryptionKeyBytes(), "AES");
	}

	public byte[] encrypt(String secret) {
		byte[] nonce = new byte[NONCE_BYTES];
		this.random.nextBytes(nonce);
		try {
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.ENCRYPT_MODE, this.key, new GCMParameterSpec(TAG_BITS, nonce));
			byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
			return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot encrypt a partner secret", ex);
		}
	}

	public String decrypt(byte[] stored) {
		try {
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.DECRYPT_MODE, this.key, new GCMParameterSpec(TAG_BITS, stored, 0, NONCE_BYTES));
			byte[] plain = cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES);
			return new String(plain, StandardCharsets.UTF_8);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot decrypt a partner secret (wrong APP_SECRET_ENCRYPTION_KEY?)", ex);
		}
	}

}
