package com.healthpartner.api.signature;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;

/**
 * {@code x-signature: t=<unix seconds>,v1=<hex HMAC-SHA256>}, in the style of Stripe's
 * signatures: parts in any order, several {@code v1} allowed (any may match), parts of
 * other schemes ignored so that a later scheme can be added beside {@code v1}.
 */
record SignatureHeader(long timestamp, List<byte[]> signatures) {

	private static final Pattern SECONDS = Pattern.compile("[0-9]{1,12}");

	private static final Pattern HMAC_HEX = Pattern.compile("[0-9a-fA-F]{64}");

	static SignatureHeader parse(String header) {
		Long timestamp = null;
		List<byte[]> signatures = new ArrayList<>();
		for (String part : header.split(",")) {
			String trimmed = part.trim();
			int equals = trimmed.indexOf('=');
			if (equals <= 0) {
				throw malformed();
			}
			String name = trimmed.substring(0, equals);
			String value = trimmed.substring(equals + 1);
			if (name.equals("t")) {
				if (timestamp != null || !SECONDS.matcher(value).matches()) {
					throw malformed();
				}
				timestamp = Long.parseLong(value);
			}
			else if (name.equals("v1")) {
				if (!HMAC_HEX.matcher(value).matches()) {
					throw malformed();
				}
				signatures.add(HexFormat.of().parseHex(value));
			}
		}
		if (timestamp == null || signatures.isEmpty()) {
			throw malformed();
		}
		return new SignatureHeader(timestamp, signatures);
	}

	private static ApiException malformed() {
		return new ApiException(ProblemType.INVALID_SIGNATURE,
				"The x-signature header must be t=<unix seconds>,v1=<64 hex characters of HMAC-SHA256>");
	}

}
