package com.healthpartner.api.access;

import java.util.Arrays;
import java.util.Optional;

/**
 * Whether a partner's keys work: {@code active}, or {@code suspended} by an administrator
 * (every request then gets {@code 403 partner_suspended}).
 */
public enum PartnerStatus {

	ACTIVE, SUSPENDED;

	/** As stored and shown: {@code active}, {@code suspended}. */
	public String value() {
		return name().toLowerCase();
	}

	public static Optional<PartnerStatus> of(String value) {
		return Arrays.stream(values()).filter((status) -> status.value().equals(value)).findFirst();
	}

}
