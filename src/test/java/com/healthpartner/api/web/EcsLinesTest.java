package com.healthpartner.api.web;

import java.time.Instant;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class EcsLinesTest {

	private final EcsLines lines = new EcsLines(new MockEnvironment());

	@ParameterizedTest
	@ValueSource(strings = { "2026-11-28T12:00:00Z", "2026-11-28T12:00:00.100Z", "2026-11-28T12:00:00.000100Z",
			"2026-11-28T12:00:00.000000100Z", "2026-11-28T12:00:00.123456789Z", "2026-11-28T12:00:00.999999Z",
			"1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999Z", "+10000-01-01T00:00:00.5Z",
			"-0001-06-30T10:20:30.000007Z" })
	void writesAnInstantAsItsOwnTextWould(String text) {
		Instant at = Instant.parse(text);
		assertThat(this.lines.timestamp(new StringBuilder(), at)).hasToString(at.toString());
	}

	@Test
	void writesEveryInstantOfConsecutiveAndScatteredSecondsAsItsOwnTextWould() {
		SplittableRandom random = new SplittableRandom(28);
		long second = Instant.parse("2026-11-28T12:00:00Z").getEpochSecond();
		for (int i = 0; i < 100_000; i++) {
			second += (i % 1000 == 999) ? random.nextLong(-100_000_000, 100_000_000) : random.nextInt(2);
			int nano = switch (i % 4) {
				case 0 -> random.nextInt(1_000) * 1_000_000;
				case 1 -> random.nextInt(1_000_000) * 1_000;
				case 2 -> random.nextInt(1_000_000_000);
				default -> 0;
			};
			Instant at = Instant.ofEpochSecond(second, nano);
			assertThat(this.lines.timestamp(new StringBuilder(), at)).hasToString(at.toString());
		}
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "/api/v1/health/metrics", "/api/v1/x\"y\\z", "/api/v1/tab\tnew\nline\u0001", "/api/v1/é✓" })
	void aLineIsOneJsonObjectWhoseMessageSummarisesItsFields(String path) {
		StringBuilder line = new StringBuilder();
		this.lines.append(line, new AccessLog.Entry(Instant.parse("2026-11-30T08:00:00.5Z"), "loop-\"1\"", "trace-7",
				"POST", "UNMATCHED", path, 429, "partner-1", 3));
		assertThat(line).endsWith("}\n");
		Map<String, Object> fields = JsonMapper.builder().build().readValue(line.toString(), new TypeReference<>() {
		});
		assertThat(fields).containsEntry("message", "POST " + path + " 429 in 3 ms")
			.containsEntry("path", path)
			.containsEntry("request_id", "trace-7")
			.containsEntry("@timestamp", "2026-11-30T08:00:00.500Z");
		assertThat(fields.get("process")).extracting("thread").isEqualTo(Map.of("name", "loop-\"1\""));
	}

}
