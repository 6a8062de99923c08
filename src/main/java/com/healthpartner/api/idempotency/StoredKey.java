package com.healthpartner.api.idempotency;

/**
 * An unexpired idempotency key as stored: the digest of its first request and, once that
 * request succeeded, its answer ({@code status} null while it is in flight).
 */
record StoredKey(byte[] requestHash, Integer status, String location, String body, String outcome) {

	boolean completed() {
		return this.status != null;
	}

}
