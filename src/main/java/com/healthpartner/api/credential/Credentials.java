package com.healthpartner.api.credential;

import java.security.SecureRandom;

import com.healthpartner.api.crypto.Digests;

/**
 * Generates API keys ({@code hpk_} + 32 base62) and secrets ({@code hps_} + 40 base62)
 * and derives what is stored of a key: its SHA-256 hash and a short display prefix.
 */
final class Credentials {

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

	static byte[] hash(String apiKey) {
		return Digests.sha256(apiKey);
	}

	private static String base62(int length) {
		char[] chars = new char[length];
		for (int i = 0; i < length; i++) {
			chars[i] = BASE62[RANDOM.nextInt(BASE62.length)];
		}
		return new String(chars);
	}

}
