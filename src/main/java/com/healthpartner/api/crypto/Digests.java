package com.healthpartner.api.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * SHA-256, SHA-1 and HMAC-SHA256 without the checked-exception boilerplate of the JDK's
 * API. Each thread keeps its own {@link MessageDigest} and {@link Mac}: looking an
 * algorithm up costs more than hashing a key or a small body.
 */
public final class Digests {

	private static final String HMAC_SHA256 = "HmacSHA256";

	private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> instance("SHA-256"));

	private static final ThreadLocal<Mac> HMAC = ThreadLocal.withInitial(Digests::hmacInstance);

	private Digests() {
	}

	public static byte[] sha256(byte[] data) {
		return SHA256.get().digest(data);
	}

	public static byte[] sha256(String text) {
		return sha256(text.getBytes(StandardCharsets.UTF_8));
	}

	public static String sha256Hex(byte[] data) {
		return HexFormat.of().formatHex(sha256(data));
	}

	/** A new SHA-256 digest, for a body hashed as it streams. */
	public static MessageDigest newSha256() {
		return instance("SHA-256");
	}

	public static String sha1Hex(String text) {
		return HexFormat.of().formatHex(instance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
	}

	/** An HMAC-SHA256 key of these bytes. */
	public static SecretKeySpec hmacKey(byte[] key) {
		return new SecretKeySpec(key, HMAC_SHA256);
	}

	public static byte[] hmacSha256(SecretKeySpec key, byte[] data) {
		Mac mac = HMAC.get();
		try {
			mac.init(key);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
		return mac.doFinal(data);
	}

	public static byte[] hmacSha256(SecretKeySpec key, String text) {
		return hmacSha256(key, text.getBytes(StandardCharsets.UTF_8));
	}

	private static MessageDigest instance(String algorithm) {
		try {
			return MessageDigest.getInstance(algorithm);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Mac hmacInstance() {
		try {
			return Mac.getInstance(HMAC_SHA256);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
