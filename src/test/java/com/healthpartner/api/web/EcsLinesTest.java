package com.healthpartner.api.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.env.MockEnvironment;

import com.healthpartner.api.text.Utf8Bytes;

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
		assertThat(timestamp(at)).isEqualTo(at.toString());
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
			assertThat(timestamp(at)).isEqualTo(at.toString());
		}
	}

	/**
	 * What {@link EcsLines#timestamp} writes, with the closing {@code Z} the line adds.
	 */
	private String timestamp(Instant at) {
		Utf8Bytes bytes = new Utf8Bytes(8);
		this.lines.timestamp(bytes, at);
		return new String(bytes.array(), 0, bytes.length(), StandardCharsets.US_ASCII) + "Z";
	}

	private String line(AccessLog.Entry entry) {
		Utf8Bytes bytes = new Utf8Bytes(8);
		this.lines.append(bytes, entry);
		return new String(bytes.array(), 0, bytes.length(), StandardCharsets.UTF_8);
	}

	@Test
	void aLineIsTheEcsObjectWithItsFieldsInOrder() {
		EcsLines lines = new EcsLines(
				new MockEnvironment().withProperty("spring.application.name", "health-partner-api")
					.withProperty("spring.application.version", "0.1.0"));
		Utf8Bytes bytes = new Utf8Bytes(8);
		lines.append(bytes,
				new AccessLog.Entry(Instant.parse("2026-12-01T04:22:50.704728431Z"), "reactor-http-io_uring-1",
						"cf9565ff-9709-4447-8e95-f400e7816a24", "POST", "UNMATCHED", "/api/v1/health/metrics", 429,
						"e7d13468-4d28-4b19-ae38-9440eb90d6b0", 1));
		assertThat(new String(bytes.array(), 0, bytes.length(), StandardCharsets.UTF_8))
			.isEqualTo("{\"@timestamp\":\"2026-12-01T04:22:50.704728431Z\",\"log\":{\"level\":\"INFO\",\"logger\":"
					+ "\"com.healthpartner.api.access\"},\"process\":{\"pid\":" + ProcessHandle.current().pid()
					+ ",\"thread\":{\"name\":\"reactor-http-io_uring-1\"}},\"service\":{\"name\":\"health-partner-api\","
					+ "\"version\":\"0.1.0\",\"node\":{}},\"message\":\"POST /api/v1/health/metrics 429 in 1 ms\","
					+ "\"request_id\":\"cf9565ff-9709-4447-8e95-f400e7816a24\",\"method\":\"POST\",\"route\":\"UNMATCHED\","
					+ "\"path\":\"/api/v1/health/metrics\",\"status\":429,\"partner_id\":"
					+ "\"e7d13468-4d28-4b19-ae38-9440eb90d6b0\",\"duration_ms\":1,\"ecs\":{\"version\":\"8.11\"}}\n");
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "/api/v1/health/metrics", "/api/v1/x\"y\\z", "/api/v1/tab\tnew\nline\u0001", "/api/v1/é✓" })
	void aLineIsOneJsonObjectWhoseMessageSummarisesItsFields(String path) {
		String line = line(new AccessLog.Entry(Instant.parse("2026-11-30T08:00:00.5Z"), "loop-\"1\"", "trace-7", "POST",
				"UNMATCHED", path, 429, "partner-1", 3));
		assertThat(line).endsWith("}\n");
		Map<String, Object> fields = JsonMapper.builder().build().readValue(line, new TypeReference<>() {
		});
		assertThat(fields).containsEntry("message", "POST " + path + " 429 in 3 ms")
			.containsEntry("path", path)
			.containsEntry("request_id", "trace-7")
			.containsEntry("@timestamp", "2026-11-30T08:00:00.500Z");
		assertThat(fields.get("process")).extracting("thread").isEqualTo(Map.of("name", "loop-\"1\""));
	}

	@Test
	void fieldsThatRepeatAreWrittenAsTheyAreWhateverTheyWereOnTheLinesBefore() {
		// more partners than the line keeps escaped, in an order that comes back to each
		// after it has been forgotten; threads, methods and routes with characters to
		// escape
		JsonMapper json = JsonMapper.builder().build();
		String[] threads = { "reactor-http-epoll-1", "loop-\"2\"" };
		String[] methods = { "GET", "POST", "PATCH", "M\\X" };
		String[] routes = { "/api/v1/health/metrics", "UNMATCHED", "/api/v1/é/{id}" };
		for (int i = 0; i < 5_000; i++) {
			String partner = "partner-" + ((i * 7919) % 1_500) + ((i % 3 == 0) ? "\t✓" : "");
			String path = "/api/v1/p\"" + i;
			AccessLog.Entry entry = new AccessLog.Entry(Instant.parse("2026-12-06T00:00:00Z"), threads[i % 2],
					"request-" + i, methods[i % 4], routes[i % 3], path, 200 + i % 300, partner, i % 17);
			Map<String, Object> fields = json.readValue(line(entry), new TypeReference<>() {
			});
			assertThat(fields).as("line %d", i)
				.containsEntry("message",
						methods[i % 4] + " " + path + " " + (200 + i % 300) + " in " + (i % 17) + " ms")
				.containsEntry("method", methods[i % 4])
				.containsEntry("route", routes[i % 3])
				.containsEntry("path", path)
				.containsEntry("partner_id", partner)
				.containsEntry("request_id", "request-" + i);
			assertThat(fields.get("process")).as("line %d", i)
				.extracting("thread")
				.isEqualTo(Map.of("name", threads[i % 2]));
		}
	}

}
