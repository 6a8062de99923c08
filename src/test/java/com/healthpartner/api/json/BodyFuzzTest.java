package com.healthpartner.api.json;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property-based fuzzing of the two write routes (jqwik, which runs on the JUnit Platform
 * the build uses): thousands of generated bodies, most of them JSON shaped like a real
 * submission with extreme numbers ({@code 1e400}, {@code 0e2147483648}, 2,000-digit
 * integers, {@code -0}), odd strings (lone surrogates as escapes, control characters,
 * 4-byte characters, long ones), deep nesting, unknown fields and wrong types, the rest
 * random bytes and truncated or mutated JSON, some with another {@code Content-Type} or a
 * {@code Content-Encoding}. Whatever is sent: never a {@code 5xx}; every {@code 4xx} is
 * problem+json with a {@code code}; a refused request stores nothing, neither a record
 * nor an audit event (the partner's rows are counted after each request); a {@code 201}
 * stores its record once, with its one write event. Each run draws new bodies (jqwik
 * reports the seed of a failure and tries it first on the next run). The service is an
 * instance of its own on the test database, the partner on a plan that never limits.
 */
class BodyFuzzTest {

	private static final String METRICS = "/api/v1/health/metrics";

	private static final String ASSESSMENTS = "/api/v1/health/assessments";

	private static final List<String> METRIC_NAMES = List.of("weight", "height", "bmi", "body_fat", "heart_rate",
			"resting_heart_rate", "systolic_bp", "diastolic_bp", "blood_glucose", "body_temperature", "steps",
			"sleep_duration", "custom_metric", "", "user_id");

	private static final List<String> EXTREME_NUMBERS = List.of("0", "-0", "-0.0", "0.0e0", "1e400", "-1e400", "1e-400",
			"0e2147483648", "1e-2147483648", "0E+2147483647", "0e1073741823", "1e1000", "1e-1000", "1e1001", "4.9e-324",
			"2.2250738585072014E-308", "1.7976931348623157e308", "1.7976931348623159e308", "9223372036854775807",
			"9223372036854775808", "-9223372036854775809", "18446744073709551616",
			"123456789012345678901234567890.123456789012345678901234567890", "1E+0", "0.1e-0", "72.5", "-72.5",
			"1e99999999999999999999", "1e-99999999999999999999", "NaN", "Infinity", "-Infinity", "01", "1.", ".5", "+1",
			"1e", "1e+", "--1", "0x10", "1_000");

	private static final List<String> CONTENT_TYPES = List.of("application/json; charset=utf-16",
			"application/json; charset=ISO-8859-1", "text/plain", "application/x-www-form-urlencoded",
			"application/merge-patch+json", "application/json;charset=\"utf-8\"", "a/b;;;", "application/xml",
			"application/json; charset=UTF-8", "*/*", "application/problem+json", "");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static ServiceInstance service;

	private static DatabaseClient db;

	private static HttpClient http;

	private static String base;

	private static Credentials partner;

	private static long metricRows;

	private static long assessmentRows;

	private static long writeEvents;

	private static int created;

	@BeforeContainer
	static void start() {
		service = ServiceInstance.start(Map.of());
		db = service.context().getBean(DatabaseClient.class);
		base = "http://localhost:" + service.context().getEnvironment().getProperty("local.server.port");
		http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		partner = new Partners(service.client()).onboard("loadtest");
	}

	@AfterContainer
	static void stop() {
		if (service != null) {
			service.close();
		}
	}

	@Property(tries = 1300)
	void anyMetricsBodyIsStoredOnceOrRefusedWithAProblemThatStoresNothing(@ForAll Random random) throws Exception {
		sendAndCheck(METRICS, body(random, true), random);
	}

	@Property(tries = 1300)
	void anyAssessmentBodyIsStoredOnceOrRefusedWithAProblemThatStoresNothing(@ForAll Random random) throws Exception {
		sendAndCheck(ASSESSMENTS, body(random, false), random);
	}

	private static void sendAndCheck(String path, byte[] body, Random random) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
			.timeout(Duration.ofSeconds(30))
			.header("x-api-key", partner.apiKey())
			.POST(HttpRequest.BodyPublishers.ofByteArray(body));
		int headers = random.nextInt(20);
		if (headers == 0) {
			request.header("Content-Encoding", random.nextBoolean() ? "gzip" : "identity");
		}
		if (headers < 17) {
			request.header("Content-Type", "application/json");
		}
		else if (headers < 19) {
			request.header("Content-Type", CONTENT_TYPES.get(random.nextInt(CONTENT_TYPES.size())));
		}
		if (random.nextInt(10) == 0) {
			request.header("Idempotency-Key", "fuzz-" + UUID.randomUUID());
		}
		HttpResponse<byte[]> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		String sent = new String(body, 0, Math.min(body.length, 2000), StandardCharsets.UTF_8);
		String text = new String(answer.body(), StandardCharsets.UTF_8);
		int status = answer.statusCode();
		assertThat(status).as("status of %s, answered %s", sent, text).isLessThan(500);
		long[] counts = counts();
		if (status == 201) {
			created++;
			String id = JSON.readTree(text).get("id").asString();
			String table = path.equals(METRICS) ? "metric_records" : "assessments";
			assertThat(count("select count(*) from " + table + " where id = :id", UUID.fromString(id))).isOne();
			if (path.equals(METRICS)) {
				metricRows++;
			}
			else {
				assessmentRows++;
			}
			writeEvents++;
		}
		else {
			assertThat(status).as("status of %s, answered %s", sent, text).isBetween(400, 499);
			assertThat(answer.headers().firstValue("Content-Type")).as(text).contains("application/problem+json");
			JsonNode problem = JSON.readTree(text);
			assertThat(problem.path("code").isString()).as(text).isTrue();
			assertThat(problem.path("status").asInt()).isEqualTo(status);
		}
		assertThat(counts).as("records and write events after %s answered %d", sent, status)
			.containsExactly(metricRows, assessmentRows, writeEvents);
	}

	private static long[] counts() {
		return db.sql("""
				select (select count(*) from metric_records where partner_id = :p),
				       (select count(*) from assessments where partner_id = :p),
				       (select count(*) from audit_events where partner_id = :p and action = 'write')
				""")
			.bind("p", UUID.fromString(partner.partnerId()))
			.map((row) -> new long[] { row.get(0, Long.class), row.get(1, Long.class), row.get(2, Long.class) })
			.one()
			.block();
	}

	private static long count(String sql, UUID id) {
		return db.sql(sql).bind("id", id).map((row) -> row.get(0, Long.class)).one().block();
	}

	private static byte[] body(Random random, boolean metrics) {
		int kind = random.nextInt(20);
		if (kind < 11) {
			return utf8(submission(random, metrics));
		}
		if (kind < 13) {
			return utf8(value(random, 0));
		}
		if (kind < 15) {
			byte[] bytes = new byte[random.nextInt(300)];
			random.nextBytes(bytes);
			return bytes;
		}
		if (kind < 17) {
			byte[] json = utf8(submission(random, metrics));
			return mutated(random, json);
		}
		if (kind < 18) {
			int depth = 1 + random.nextInt(3000);
			String open = random.nextBoolean() ? "[" : "{\"a\":";
			String close = open.equals("[") ? "]" : "}";
			String field = metrics ? "metrics" : "responses";
			return utf8("{\"user_id\":\"u\",\"" + field + "\":{\"x\":" + open.repeat(depth) + "1" + close.repeat(depth)
					+ "}}");
		}
		if (kind < 19) {
			return utf8("{\"user_id\":" + string(random) + ",\"" + (metrics ? "metrics" : "responses") + "\":{"
					+ string(random) + ":" + string(random) + "}}");
		}
		return new byte[random.nextInt(3)];
	}

	/** A body shaped like a real submission, with fuzzed values. */
	private static String submission(Random random, boolean metrics) {
		if (metrics && random.nextInt(4) == 0) {
			// valid but for at most one number
			return "{\"user_id\":\"member-" + random.nextInt(1000) + "\",\"metrics\":{\"steps\":"
					+ random.nextInt(50_000) + ",\"weight\":" + (random.nextBoolean() ? number(random) : "72.5") + "}}";
		}
		StringBuilder json = new StringBuilder("{");
		String user = switch (random.nextInt(8)) {
			case 0 -> string(random);
			case 1 -> value(random, 2);
			default -> "\"member-" + random.nextInt(1000) + "\"";
		};
		if (random.nextInt(15) != 0) {
			json.append("\"user_id\":").append(user).append(',');
		}
		json.append(metrics ? "\"metrics\":" : "\"responses\":");
		if (random.nextInt(10) == 0) {
			json.append(value(random, 1));
		}
		else {
			json.append('{');
			int fields = (random.nextInt(10) == 0) ? 0 : 1 + random.nextInt(5);
			for (int i = 0; i < fields; i++) {
				if (i > 0) {
					json.append(',');
				}
				String name = metrics ? METRIC_NAMES.get(random.nextInt(METRIC_NAMES.size()))
						: "q" + random.nextInt(50);
				json.append('"').append(name).append("\":");
				json.append(switch (random.nextInt(4)) {
					case 0 -> value(random, 2);
					case 1 -> number(random);
					default -> (random.nextBoolean()) ? Integer.toString(1 + random.nextInt(150))
							: String.format("%d.%d", 40 + random.nextInt(60), random.nextInt(10));
				});
			}
			json.append('}');
		}
		if (metrics && random.nextInt(3) == 0) {
			json.append(",\"recorded_at\":").append(random.nextBoolean() ? string(random) : value(random, 3));
		}
		if (random.nextInt(8) == 0) {
			json.append(",\"unknown_").append(random.nextInt(5)).append("\":").append(value(random, 2));
		}
		return json.append('}').toString();
	}

	/** Any JSON value (sometimes not quite JSON), nested at most a few levels. */
	private static String value(Random random, int depth) {
		int kind = random.nextInt((depth > 4) ? 5 : 8);
		return switch (kind) {
			case 0 -> number(random);
			case 1 -> string(random);
			case 2 -> random.nextBoolean() ? "true" : "false";
			case 3 -> "null";
			case 4 -> number(random);
			case 5 -> {
				StringBuilder array = new StringBuilder("[");
				for (int i = random.nextInt(4); i > 0; i--) {
					array.append(value(random, depth + 1)).append((i > 1) ? "," : "");
				}
				yield array.append(']').toString();
			}
			default -> {
				StringBuilder object = new StringBuilder("{");
				for (int i = random.nextInt(4); i > 0; i--) {
					object.append(string(random))
						.append(':')
						.append(value(random, depth + 1))
						.append((i > 1) ? "," : "");
				}
				yield object.append('}').toString();
			}
		};
	}

	private static String number(Random random) {
		int kind = random.nextInt(6);
		if (kind < 2) {
			return EXTREME_NUMBERS.get(random.nextInt(EXTREME_NUMBERS.size()));
		}
		if (kind == 2) {
			return Double.toString(Double.longBitsToDouble(random.nextLong())).replace("Infinity", "1e999");
		}
		StringBuilder number = new StringBuilder();
		if (random.nextBoolean()) {
			number.append('-');
		}
		number.append(1 + random.nextInt(9)).append(digits(random, random.nextInt((kind == 3) ? 2000 : 20)));
		if (random.nextBoolean()) {
			number.append('.').append(digits(random, 1 + random.nextInt(30)));
		}
		if (random.nextBoolean()) {
			number.append(random.nextBoolean() ? 'e' : 'E').append(random.nextBoolean() ? "-" : "+");
			number.append(switch (random.nextInt(4)) {
				case 0 -> Integer.toString(random.nextInt(2000));
				case 1 -> Long.toString(Math.abs(random.nextLong()));
				case 2 -> Integer.toString(Integer.MAX_VALUE - random.nextInt(3));
				default -> Integer.toString(random.nextInt(400));
			});
		}
		return number.toString();
	}

	private static String digits(Random random, int n) {
		StringBuilder digits = new StringBuilder(n);
		for (int i = 0; i < n; i++) {
			digits.append((char) ('0' + random.nextInt(10)));
		}
		return digits.toString();
	}

	/**
	 * A JSON string (in its quotes), with escapes and characters a parser may trip on.
	 */
	private static String string(Random random) {
		StringBuilder text = new StringBuilder("\"");
		int length = (random.nextInt(20) == 0) ? random.nextInt(20_000) : random.nextInt(40);
		for (int i = 0; i < length; i++) {
			switch (random.nextInt(12)) {
				case 0 -> text.append(String.format("\\u%04x", 0xD800 + random.nextInt(0x800)));
				case 1 -> text.append(String.format("\\u%04x", random.nextInt(0x20)));
				case 2 -> text.appendCodePoint(0x10000 + random.nextInt(0xFFFF));
				case 3 -> text.append("\\\"\\\\\\/\\b\\f\\n\\r\\t".charAt(random.nextInt(9)));
				case 4 -> text.append((char) random.nextInt(0x20));
				case 5 -> text.append("\\u0000");
				case 6 -> text.appendCodePoint(0x80 + random.nextInt(0x800));
				case 7 -> text.append('\\').append((char) ('a' + random.nextInt(26)));
				default -> text.append((char) ('a' + random.nextInt(26)));
			}
		}
		return text.append('"').toString();
	}

	private static byte[] mutated(Random random, byte[] json) {
		if (json.length == 0) {
			return json;
		}
		return switch (random.nextInt(4)) {
			case 0 -> java.util.Arrays.copyOf(json, random.nextInt(json.length));
			case 1 -> {
				byte[] copy = json.clone();
				for (int i = 1 + random.nextInt(3); i > 0; i--) {
					copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
				}
				yield copy;
			}
			case 2 -> {
				byte[] overlong = { (byte) 0xC0, (byte) 0xAE, (byte) 0xE0, (byte) 0x80, (byte) 0xAF, (byte) 0xED,
						(byte) 0xA0, (byte) 0x80, (byte) 0xF8, (byte) 0x88 };
				int at = random.nextInt(json.length);
				byte[] copy = new byte[json.length + 2];
				System.arraycopy(json, 0, copy, 0, at);
				int from = random.nextInt(overlong.length - 1);
				copy[at] = overlong[from];
				copy[at + 1] = overlong[from + 1];
				System.arraycopy(json, at, copy, at + 2, json.length - at);
				yield copy;
			}
			default -> {
				byte[] doubled = new byte[json.length * 2];
				System.arraycopy(json, 0, doubled, 0, json.length);
				System.arraycopy(json, 0, doubled, json.length, json.length);
				yield doubled;
			}
		};
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
