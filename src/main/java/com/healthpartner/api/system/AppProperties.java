package com.healthpartner.api.system;

import java.net.URI;
import java.util.Base64;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Typed, validated settings of the service. Each failure names the environment variable
 * an operator sets, because that is what the operator will look for.
 */
@ConfigurationProperties("app")
public record AppProperties(String adminToken, String secretEncryptionKey,
		@DefaultValue("http://localhost:8080") String publicBaseUrl, @DefaultValue("65536") int maxBodyBytes) {

	public AppProperties {
		if (adminToken == null || adminToken.isBlank()) {
			throw new IllegalArgumentException("APP_ADMIN_TOKEN must be set (the administrator's bearer token)");
		}
		if (adminToken.length() < 16) {
			throw new IllegalArgumentException("APP_ADMIN_TOKEN must be at least 16 characters long");
		}
		if (secretEncryptionKey == null || decodedLength(secretEncryptionKey) != 32) {
			throw new IllegalArgumentException("APP_SECRET_ENCRYPTION_KEY must be the base64 encoding of 32 bytes");
		}
		try {
			URI uri = URI.create(publicBaseUrl);
			if (uri.getScheme() == null || uri.getHost() == null) {
				throw new IllegalArgumentException("no scheme or host");
			}
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("APP_PUBLIC_BASE_URL must be an absolute http(s) URL", ex);
		}
		publicBaseUrl = publicBaseUrl.endsWith("/") ? publicBaseUrl.substring(0, publicBaseUrl.length() - 1)
				: publicBaseUrl;
		if (maxBodyBytes < 1024 || maxBodyBytes > 16 * 1024 * 1024) {
			throw new IllegalArgumentException("APP_MAX_BODY_BYTES must be between 1024 and 16777216");
		}
	}

	public byte[] secretEncryptionKeyBytes() {
		return Base64.getDecoder().decode(secretEncryptionKey);
	}

	private static int decodedLength(String base64) {
		try {
			return Base64.getDecoder().decode(base64.trim()).length;
		}
		catch (IllegalArgumentException ex) {
			return -1;
		}
	}

}
