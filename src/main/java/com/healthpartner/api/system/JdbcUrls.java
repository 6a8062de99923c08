package com.healthpartner.api.system;

/**
 * Derives the JDBC URL that Flyway needs from the R2DBC URL operators configure.
 */
final class JdbcUrls {

	private JdbcUrls() {
	}

	static String fromR2dbc(String r2dbcUrl) {
		String url = r2dbcUrl.trim();
		String rest;
		if (url.startsWith("r2dbc:postgresql://")) {
			rest = url.substring("r2dbc:postgresql://".length());
		}
		else if (url.startsWith("r2dbc:postgres://")) {
			rest = url.substring("r2dbc:postgres://".length());
		}
		else if (url.startsWith("r2dbc:pool:postgresql://")) {
			rest = url.substring("r2dbc:pool:postgresql://".length());
		}
		else {
			throw new IllegalArgumentException("SPRING_R2DBC_URL must start with r2dbc:postgresql:// (was "
					+ url.replaceAll("//[^@/]*@", "//***@") + ")");
		}
		int at = rest.indexOf('@');
		int slash = rest.indexOf('/');
		if (at >= 0 && (slash < 0 || at < slash)) {
			// credentials in the URL belong to SPRING_R2DBC_USERNAME/PASSWORD for JDBC
			rest = rest.substring(at + 1);
		}
		int query = rest.indexOf('?');
		if (query >= 0) {
			rest = rest.substring(0, query);
		}
		return "jdbc:postgresql://" + rest;
	}

}
