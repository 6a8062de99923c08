package com.healthpartner.api.signature;

import java.time.Clock;

import com.healthpartner.api.access.KeyLookup;
import com.healthpartner.api.system.AppProperties;

/** Check 4 outside a running application, with the in-memory replay guard. */
public final class TestSignatures {

	private TestSignatures() {
	}

	public static Signatures over(KeyLookup keys, Clock clock, AppProperties properties) {
		return new Signatures(new SigningKeys(keys), new LocalReplayGuard(clock), clock, properties);
	}

}
