package com.healthpartner.api.support;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs requests as a partner does (docs/api.md, Signed requests), independently of the
 * service's code:
 * {@code x-signature: t=...,v1=hex(HMAC-SHA256(secret, t\nMETHOD\npath?query\nhex(sha256(body))))}.
 */
public final class Signatures {

	public static final String HEADER = "x-signature";

	private Signatures() {
	}

	public static String sign(String secret, long timestamp, String method, String pathAndQuery, String body) {
		try {
			String bodyHash = HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8)));
			String message = timestamp + "\n" + method + "\n" + pathAndQuery + "\n" + bodyHash;
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			return "t=" + timestamp + ",v1="
					+ HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
