package com.healthpartner.api.access;

import java.security.MessageDigest;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;

import com.healthpartner.api.crypto.Digests;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.system.AppProperties;

/**
 * {@code /admin/**} needs {@code Authorization: Bearer <admin token>}; nothing else opens
 * it. Compared as SHA-256 digests in constant time so neither length nor content leaks
 * through timing.
 */
@Component
public class AdminToken {

	public static final ApiException REFUSAL = new ApiException(ProblemType.INVALID_ADMIN_TOKEN,
			"Send Authorization: Bearer <admin token>; the token is missing or wrong");

	private final byte[] expected;

	public AdminToken(AppProperties properties) {
		this.expected = Digests.sha256(properties.adminToken());
	}

	public boolean accepts(ServerHttpRequest request) {
		String authorization = request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
		return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
				&& MessageDigest.isEqual(this.expected, Digests.sha256(authorization.substring(7).trim()));
	}

}
