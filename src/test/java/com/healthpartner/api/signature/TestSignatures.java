package com.healthpartner.api.signature;

import java.time.Clock;

import com.healthpartner.api.access.KeyLookup;
import com.healthpartner.api.json.BodyLimits;
import com.healthpartner.api.system.AppProperties;
import com.healthpartner.api.system.BatchProperties;

/** Check 4 outside a running application, with the in-memory replay guard. */
public final class TestSignatures {

	private TestSignatures() {
	}

	public static Signatures over(KeyLookup keys, Clock clock, AppProperties properties) {
		return new Signatures(new SigningKeys(keys), new LocalReplayGuard(clock), clock,
				new BodyLimits(properties, new BatchProperties(1000, 2 * 1024 * 1024)));
	}

}
