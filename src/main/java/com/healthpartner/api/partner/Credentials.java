package com.healthpartner.api.partner;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * Generates API keys ({@code hpk_} + 32 base62) and secrets ({@code hps_} + 40 base62)
 * and derives what is stored of a key: its SHA-256 hash and a short display prefix.
 */
public final class Credentials {

	private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

	private static final SecureRandom RANDOM = new SecureRandom();

	private Credentials() {
	}

	static String newApiKey() {
		return "hpk_" + base62(32);
	}

	static String newSecret() {
		return "hps_" + base62(40);
	}

	/**
	 * What an operator sees of a key: enough to tell keys apart, far too little to use.
	 */
	static String displayPrefix(String apiKey) {
		return apiKey.substring(0, 12);
	}

	public static byte[] hash(String apiKey) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(apiKey.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String base62(int length) {
		char[] chars = new char[length];
		for (int i = 0; i < length; i++) {
			chars[i] = BASE62[RANDOM.nextInt(BASE62.length)];
		}
		return new String(chars);
	}

}
