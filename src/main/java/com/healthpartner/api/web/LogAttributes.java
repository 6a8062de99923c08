package com.healthpartner.api.web;

/**
 * Exchange attributes that other features set for the access log.
 */
public final class LogAttributes {

	/** The text of the id of the partner whose key the request carried: a String. */
	public static final String PARTNER_ID = LogAttributes.class.getName() + ".partnerId";

	private LogAttributes() {
	}

}
