package com.healthpartner.api.partner;

import java.util.Arrays;
import java.util.Optional;

/**
 * Where a registration stands: {@code pending} until an administrator approves or rejects
 * it.
 */
enum RegistrationStatus {

	PENDING, APPROVED, REJECTED;

	/** As stored and shown: {@code pending}, {@code approved}, {@code rejected}. */
	String value() {
		return name().toLowerCase();
	}

	static Optional<RegistrationStatus> of(String value) {
		return Arrays.stream(values()).filter((status) -> status.value().equals(value)).findFirst();
	}

}
