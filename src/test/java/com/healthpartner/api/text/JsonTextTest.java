package com.healthpartner.api.text;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class JsonTextTest {

	/** Reads bodies as the service does: decimals as BigDecimal. */
	private static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.build();

	@Test
	void writesAParsedTreeAsJacksonWritesIt() {
		List<String> bodies = List.of("{\"weight\":72.5,\"resting_heart_rate\":58}",
				"{\"a\":1e3,\"b\":-0.000001,\"c\":12345678901234567890123,\"d\":1.50,\"e\":0,\"f\":-0.0,\"g\":9007199254740993}",
				"{\"q1\":\"yes\",\"q2\":[1,\"two\",true,false,null,{\"x\":[]}],\"q3\":{},\"q4\":[]}",
				"{\"quote\":\"\\\"\",\"slash\":\"\\\\ /\",\"control\":\"\\n\\r\\t\\b\\f\\u0001\\u001f\",\"uni\":\"é ü \\u2028 😀\"}",
				"[1,[2,[3]],\"\"]", "\"just a string\"", "42", "true", "null");
		for (String body : bodies) {
			JsonNode tree = MAPPER.readTree(body);
			String written = JsonText.write(new StringBuilder(), tree).toString();
			// the same text but for the case of hex digits in escapes (Jackson upper,
			// PostgreSQL lower)
			assertThat(written).as(body).isEqualToIgnoringCase(MAPPER.writeValueAsString(tree));
			assertThat(MAPPER.readTree(written)).as(body).isEqualTo(tree);
		}

	}

	@Test
	void quotesAStringAsJacksonDoesWithEscapesAnywhereOrNone() {
		List<String> values = List.of("", "plain", "é ü \u2028 😀", "\"starts", "ends\\", "mid\u0001dle",
				"\n\r\t\b\f\u001f\"\\", "a\"b\\c\td", "GET /api/v1/health/metrics 429 in 0 ms");
		for (String value : values) {
			String quoted = JsonText.quote(new StringBuilder("x"), value).toString();
			assertThat(quoted).as(value).isEqualToIgnoringCase("x" + MAPPER.writeValueAsString(value));
			assertThat(MAPPER.readValue(quoted.substring(1), String.class)).as(value).isEqualTo(value);
		}
		assertThat(JsonText.quote(new StringBuilder(), "a\u0001").toString()).isEqualTo("\"a\\u0001\"");
	}

	@Test
	void writesWhatReadsBackAsTheSameTree() {
		JsonNode tree = MAPPER.readTree("{\"b\":{\"z\":[1.25,\"\\u0000\"]},\"a\":\"line\\nbreak\"}");
		String written = JsonText.write(new StringBuilder(), tree).toString();
		assertThat(written).isEqualTo("{\"b\":{\"z\":[1.25,\"\\u0000\"]},\"a\":\"line\\nbreak\"}");
		assertThat(MAPPER.readTree(written)).isEqualTo(tree);
	}

}
