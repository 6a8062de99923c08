package com.healthpartner.api.support;

import org.springframework.http.HttpHeaders;

/**
 * An answer as a client received it, to be checked against the OpenAPI document.
 *
 * @param method the request method
 * @param path the request path, without the query
 * @param status the HTTP status
 * @param headers the response headers
 * @param body the whole body, or {@code null} when it is checked separately (a stream)
 */
public record ObservedResponse(String method, String path, int status, HttpHeaders headers, byte[] body) {

	@Override
	public String toString() {
		return this.method + " " + this.path + " -> " + this.status;
	}

}
