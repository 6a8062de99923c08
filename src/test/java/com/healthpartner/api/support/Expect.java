package com.healthpartner.api.support;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** What a test expects of an answer, said once. */
public final class Expect {

	private Expect() {
	}

	/**
	 * The answer is {@code status}, an {@code application/problem+json} body with the
	 * problem {@code code}; its body, for further checks ({@code errors},
	 * {@code detail}).
	 */
	public static WebTestClient.BodyContentSpec problem(WebTestClient.ResponseSpec answer, HttpStatus status,
			String code) {
		return answer.expectStatus()
			.isEqualTo(status)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo(code);
	}

	/**
	 * The answer is {@code 405} allowing {@code allowed} (as {@code Allow} lists them).
	 */
	public static WebTestClient.ResponseSpec notAllowed(WebTestClient.ResponseSpec answer, String allowed) {
		return answer.expectStatus()
			.isEqualTo(HttpStatus.METHOD_NOT_ALLOWED)
			.expectHeader()
			.valueEquals(HttpHeaders.ALLOW, allowed);
	}

}
