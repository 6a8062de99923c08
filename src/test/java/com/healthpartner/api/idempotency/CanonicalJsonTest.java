package com.healthpartner.api.idempotency;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two bodies are the same request when they are the same JSON, however they are written.
 */
class CanonicalJsonTest {

	private final JsonMapper json = JsonMapper.builder()
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.build();

	@Test
	void keyOrderWhiteSpaceAndTheSpellingOfNumbersDoNotMatter() {
		assertSame("{\"a\": 1, \"b\": {\"x\": [1, 2], \"y\": null}}", "{\"b\":{\"y\":null,\"x\":[1,2]},\"a\":1}");
		assertSame("{\"w\": 72.5}", "{\"w\": 72.50}");
		assertSame("{\"w\": 72.5}", "{\"w\": 7.25e1}");
		assertSame("{\"w\": 100}", "{\"w\": 100.0}");
		assertSame("{\"w\": 0}", "{\"w\": -0.00}");
	}

	@Test
	void anyDifferenceInValuesMatters() {
		assertDifferent("{\"a\": [1, 2]}", "{\"a\": [2, 1]}");
		assertDifferent("{\"a\": 1}", "{\"a\": \"1\"}");
		assertDifferent("{\"a\": true}", "{\"a\": \"t\"}");
		assertDifferent("{\"a\": null}", "{}");
		assertDifferent("{\"a\": \"x\", \"b\": \"y\"}", "{\"a\": \"x\\\"\", \"b\": \"y\"}");
		assertDifferent("{\"ab\": \"c\"}", "{\"a\": \"bc\"}");
		assertDifferent("{\"a\": {}}", "{\"a\": []}");
	}

	private void assertSame(String one, String other) {
		assertThat(CanonicalJson.sha256(this.json.readTree(one)))
			.isEqualTo(CanonicalJson.sha256(this.json.readTree(other)));
	}

	private void assertDifferent(String one, String other) {
		assertThat(CanonicalJson.sha256(this.json.readTree(one)))
			.isNotEqualTo(CanonicalJson.sha256(this.json.readTree(other)));
	}

}
