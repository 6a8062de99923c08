package com.healthpartner.api.web;

/**
 * Exchange attributes that other features set for the access log.
 */
public final class LogAttributes {

	public static final String PARTNER_ID = LogAttributes.class.getName() + ".partnerId";

	private LogAttributes() {
	}

}
