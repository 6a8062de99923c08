package com.healthpartner.api.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * The project's load test, run against any running instance (README, "Load testing"):
 * <ol>
 * <li>seeding: one user writes {@code seedRecords} metrics records (spread over days) and
 * {@code seedRecords / 5} assessments of one member, which the reads and exports
 * use;</li>
 * <li>then, for {@code duration} seconds at once:
 * <ul>
 * <li>writes: {@code users} users each writing a metrics record, reading it back, writing
 * one with an {@code Idempotency-Key} and sending it again (a replay), and writing an
 * assessment;</li>
 * <li>pages: {@code users} users reading the seeded member's metrics two pages deep
 * (following {@code next_cursor}) and a page of assessments;</li>
 * <li>exports: {@code exportUsers} users (at most 2: the per-partner cap of concurrent
 * exports) exporting the seeded metrics as NDJSON, every line counted;</li>
 * <li>batches: {@code batchUsers} users each posting batches of {@code batchSize}
 * metrics records, a member's day of readings a batch: every item {@code created};</li>
 * <li>imports: {@code importUsers} users (at most 2: the per-partner cap of active imports)
 * each sending an NDJSON import of {@code importLines} metrics records of a member and
 * following it every second until it has {@code completed}, every line {@code created},
 * its errors empty;</li>
 * <li>the 429 path: {@code limitedUsers} users on a key of a low plan writing until
 * refused, then on: every answer {@code 201} or {@code 429 rate_limited} with
 * {@code Retry-After}.</li>
 * </ul>
 * </li>
 * </ol>
 * Settings, each a system property or else an environment variable: {@code baseUrl}
 * ({@code BASE_URL}, default {@code http://localhost:8080}); {@code apiKey}
 * ({@code API_KEY}), a key on a high plan with all four scopes; {@code limitedApiKey}
 * ({@code LIMITED_API_KEY}), a key on a low plan. Instead of keys, {@code adminToken}
 * ({@code ADMIN_TOKEN}) with {@code plan} ({@code PLAN}) and {@code limitedPlan}
 * ({@code LIMITED_PLAN}, default {@code default}) has the simulation register and approve
 * a partner on each plan first. Load: {@code users} ({@code USERS}, 8), {@code duration}
 * ({@code DURATION}, seconds, 60), {@code exportUsers} ({@code EXPORT_USERS}, 1),
 * {@code batchUsers} ({@code BATCH_USERS}, 1), {@code batchSize} ({@code BATCH_SIZE}, 100,
 * at most 1,000), {@code importUsers} ({@code IMPORT_USERS}, 1, at most 2),
 * {@code importLines} ({@code IMPORT_LINES}, 10,000),
 * {@code limitedUsers} ({@code LIMITED_USERS}, 1), {@code seedRecords}
 * ({@code SEED_RECORDS}, 500), {@code maxFailedPercent} ({@code MAX_FAILED_PERCENT}, 0:
 * the run fails on any failed request).
 */
public class PartnerApiSimulation extends Simulation {

	private static final String METRICS = "/api/v1/health/metrics";

	private static final String ASSESSMENTS = "/api/v1/health/assessments";

	private static final String NDJSON = "application/x-ndjson";

	private static final String PROBLEM = "application/problem+json";

	private final String baseUrl = setting("baseUrl", "BASE_URL", "http://localhost:8080").replaceAll("/+$", "");

	private final int users = Integer.parseInt(setting("users", "USERS", "8"));

	private final Duration duration = Duration.ofSeconds(Long.parseLong(setting("duration", "DURATION", "60")));

	private final int exportUsers = Integer.parseInt(setting("exportUsers", "EXPORT_USERS", "1"));

	private final int limitedUsers = Integer.parseInt(setting("limitedUsers", "LIMITED_USERS", "1"));

	private final int batchUsers = Integer.parseInt(setting("batchUsers", "BATCH_USERS", "1"));

	private final int batchSize = Integer.parseInt(setting("batchSize", "BATCH_SIZE", "100"));

	private final int importUsers = Integer.parseInt(setting("importUsers", "IMPORT_USERS", "1"));

	private final int importLines = Integer.parseInt(setting("importLines", "IMPORT_LINES", "10000"));

	private final int seedRecords = Integer.parseInt(setting("seedRecords", "SEED_RECORDS", "500"));

	private final double maxFailedPercent = Double.parseDouble(setting("maxFailedPercent", "MAX_FAILED_PERCENT", "0"));

	/**
	 * Distinguishes this run's members from those of earlier runs on the same partner.
	 */
	private final String run = Long.toString(System.currentTimeMillis(), 36);

	private final String seededMember = "load-" + this.run + "-seeded";

	private final Instant seedStart = Instant.now().minus(Duration.ofDays(60)).truncatedTo(ChronoUnit.SECONDS);

	{
		String apiKey = setting("apiKey", "API_KEY", null);
		String limitedApiKey = setting("limitedApiKey", "LIMITED_API_KEY", null);
		String adminToken = setting("adminToken", "ADMIN_TOKEN", null);
		if (apiKey == null || limitedApiKey == null) {
			if (adminToken == null) {
				throw new IllegalArgumentException(
						"Set apiKey (API_KEY, a key on a high plan with all four scopes) and "
								+ "limitedApiKey (LIMITED_API_KEY, a key on a low plan), or adminToken (ADMIN_TOKEN) with plan "
								+ "(PLAN, a high plan of the instance) to have partners onboarded");
			}
			if (apiKey == null) {
				apiKey = onboard(adminToken, setting("plan", "PLAN", null));
			}
			if (limitedApiKey == null) {
				limitedApiKey = onboard(adminToken, setting("limitedPlan", "LIMITED_PLAN", "default"));
			}
		}
		if (this.batchSize < 1 || this.batchSize > 1000) {
			throw new IllegalArgumentException("batchSize is 1 to 1000: a batch holds at most 1,000 records");
		}
		if (this.importUsers > 2) {
			throw new IllegalArgumentException("importUsers is at most 2: a partner has at most 2 active imports "
					+ "(more are refused with 429 by design)");
		}
		if (this.exportUsers > 2) {
			throw new IllegalArgumentException("exportUsers is at most 2: a partner runs at most 2 exports at once "
					+ "(more are refused with 429 by design)");
		}

		HttpProtocolBuilder partner = protocol(apiKey);
		HttpProtocolBuilder limitedPartner = protocol(limitedApiKey);

		PopulationBuilder seeding = seed().injectOpen(atOnceUsers(1)).protocols(partner);
		PopulationBuilder load = writes().injectClosed(constantConcurrentUsers(this.users).during(this.duration))
			.protocols(partner);
		PopulationBuilder pages = pages().injectClosed(constantConcurrentUsers(this.users).during(this.duration))
			.protocols(partner);
		PopulationBuilder exports = exports()
			.injectClosed(constantConcurrentUsers(this.exportUsers).during(this.duration))
			.protocols(partner);
		PopulationBuilder refused = rateLimited().injectOpen(atOnceUsers(this.limitedUsers)).protocols(limitedPartner);
		PopulationBuilder batches = batches()
			.injectClosed(constantConcurrentUsers(this.batchUsers).during(this.duration))
			.protocols(partner);

		PopulationBuilder imports = imports()
			.injectClosed(constantConcurrentUsers(this.importUsers).during(this.duration))
			.protocols(partner);

		setUp(seeding.andThen(load, pages, exports, refused, batches, imports))
			.assertions(global().failedRequests().percent().lte(this.maxFailedPercent));
	}

	private HttpProtocolBuilder protocol(String apiKey) {
		return http.baseUrl(this.baseUrl)
			.header("x-api-key", apiKey)
			.acceptHeader("application/json")
			.userAgentHeader("health-partner-api gatling load test")
			.shareConnections();
	}

	/** The seeded member's records: pages and exports read them. */
	private ScenarioBuilder seed() {
		return scenario("seed").repeat(this.seedRecords, "i")
			.on(exec(http("seed: POST metrics").post(METRICS)
				.body(StringBody((session) -> metricsBody(this.seededMember,
						this.seedStart.plus(Duration.ofHours(session.getInt("i"))))))
				.asJson()
				.check(status().is(201)))
				.doIf((session) -> session.getInt("i") % 5 == 0)
				.then(exec(http("seed: POST assessments").post(ASSESSMENTS)
					.body(StringBody((session) -> assessmentBody(this.seededMember, session.getInt("i"))))
					.asJson()
					.check(status().is(201)))));
	}

	private ScenarioBuilder writes() {
		ChainBuilder metrics = exec(http("POST metrics").post(METRICS)
			.body(StringBody((session) -> metricsBody(member(session), recently())))
			.asJson()
			.check(status().is(201), jsonPath("$.id").saveAs("id")))
			.exec(http("GET metrics record").get(METRICS + "/#{id}")
				.check(status().is(200), jsonPath("$.id").isEL("#{id}")));
		ChainBuilder idempotent = exec(
				(session) -> session.set("idempotencyKey", "load-" + this.run + "-" + session.userId())
					.set("body", metricsBody(member(session), recently())))
			.exec(http("POST metrics with Idempotency-Key").post(METRICS)
				.header("Idempotency-Key", "#{idempotencyKey}")
				.body(StringBody("#{body}"))
				.asJson()
				.check(status().is(201), jsonPath("$.id").saveAs("firstId")))
			.exec(http("POST metrics with Idempotency-Key, replayed").post(METRICS)
				.header("Idempotency-Key", "#{idempotencyKey}")
				.body(StringBody("#{body}"))
				.asJson()
				.check(status().is(201), header("Idempotent-Replayed").is("true"),
						jsonPath("$.id").isEL("#{firstId}")));
		ChainBuilder assessment = exec(http("POST assessments").post(ASSESSMENTS)
			.body(StringBody((session) -> assessmentBody(member(session), (int) (session.userId() % 1000))))
			.asJson()
			.check(status().is(201), jsonPath("$.id").exists()));
		return scenario("writes").exec(metrics, idempotent, assessment);
	}

	private ScenarioBuilder pages() {
		int firstPage = Math.min(50, this.seedRecords);
		return scenario("pages")
			.exec(http("GET metrics page").get(METRICS)
				.queryParam("user_id", this.seededMember)
				.queryParam("limit", 50)
				.check(status().is(200), jsonPath("$.data[*]").count().is(firstPage),
						jsonPath("$.next_cursor").ofString().optional().saveAs("cursor")))
			.doIf((session) -> session.contains("cursor") && !"null".equals(session.getString("cursor")))
			.then(exec(http("GET metrics next page").get(METRICS)
				.queryParam("user_id", this.seededMember)
				.queryParam("limit", 50)
				.queryParam("cursor", "#{cursor}")
				.check(status().is(200), jsonPath("$.data[0].user_id").is(this.seededMember))))
			.exec(http("GET assessments page").get(ASSESSMENTS)
				.queryParam("user_id", this.seededMember)
				.queryParam("limit", 20)
				.check(status().is(200), jsonPath("$.data[*]").count().is(Math.min(20, (this.seedRecords + 4) / 5))));
	}

	private ScenarioBuilder exports() {
		return scenario("exports").exec(http("GET metrics as NDJSON (export)").get(METRICS)
			.queryParam("user_id", this.seededMember)
			.header("Accept", NDJSON)
			.check(status().is(200), header("Content-Type").is(NDJSON),
					bodyString().transform(PartnerApiSimulation::lines).is(this.seedRecords)));
	}

	/**
	 * Batches of {@code batchSize} metrics records of one member, every item created (no
	 * client record ids): one request against the plan each.
	 */
	private ScenarioBuilder batches() {
		return scenario("batches").exec(http("POST metrics batch").post(METRICS + "/batch")
			.body(StringBody((session) -> batchBody(member(session), this.batchSize)))
			.asJson()
			.check(status().is(200), jsonPath("$.summary.created").ofInt().is(this.batchSize),
					jsonPath("$.summary.failed").ofInt().is(0)));
	}

	/**
	 * An import of {@code importLines} metrics records of one member, followed every
	 * second until it has ended: {@code completed}, every line created, no errors.
	 */
	private ScenarioBuilder imports() {
		return scenario("imports")
			.exec(http("POST import").post("/api/v1/health/imports?kind=metrics")
				.header("Content-Type", NDJSON)
				.body(StringBody((session) -> importBody(member(session), this.importLines)))
				.check(status().is(202), header("Location").saveAs("import"),
						jsonPath("$.lines").ofInt().is(this.importLines)))
			.exec((session) -> session.set("importStatus", "processing"))
			.asLongAs((session) -> "processing".equals(session.getString("importStatus")))
			.on(pause(Duration.ofSeconds(1)).exec(http("GET import").get("#{import}")
				.check(status().is(200), jsonPath("$.status").saveAs("importStatus"))))
			.exec(http("GET import (ended)").get("#{import}")
				.check(status().is(200), jsonPath("$.status").is("completed"),
						jsonPath("$.created").ofInt().is(this.importLines), jsonPath("$.failed").ofInt().is(0)))
			.exec(http("GET import errors").get("#{import}/errors")
				.header("Accept", NDJSON)
				.check(status().is(200), bodyString().transform(PartnerApiSimulation::lines).is(0)));
	}

	/**
	 * Writes until the low plan is used up, then goes on writing for the duration: every
	 * answer is a {@code 201} or a {@code 429 rate_limited} problem with
	 * {@code Retry-After}.
	 */
	private ScenarioBuilder rateLimited() {
		ChainBuilder write = exec(http("429 path: POST metrics on a low plan").post(METRICS)
			.body(StringBody((session) -> metricsBody(member(session), recently())))
			.asJson()
			.check(status().in(201, 429).saveAs("status"))
			.checkIf((response, session) -> response.status().code() == 429)
			.then(header("Retry-After").exists(), header("Content-Type").is(PROBLEM),
					jsonPath("$.code").is("rate_limited")));
		return scenario("429 path").exec((session) -> session.set("status", 0).set("sent", 0))
			.asLongAs((session) -> session.getInt("status") != 429 && session.getInt("sent") < 100_000)
			.on(exec(write).exec((session) -> session.set("sent", session.getInt("sent") + 1)))
			.exec(http("429 path: refused once the plan is used up").post(METRICS)
				.body(StringBody((session) -> metricsBody(member(session), recently())))
				.asJson()
				.check(status().is(429), header("Retry-After").exists(), jsonPath("$.code").is("rate_limited")))
			.exec(during(this.duration).on(write));
	}

	private String member(Session session) {
		return "load-" + this.run + "-" + session.userId();
	}

	private static Instant recently() {
		return Instant.now()
			.minusSeconds(ThreadLocalRandom.current().nextInt(1, 86_400))
			.truncatedTo(ChronoUnit.SECONDS);
	}

	private static String metricsBody(String member, Instant recordedAt) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return "{\"user_id\":\"" + member + "\",\"metrics\":{\"weight\":" + (550 + random.nextInt(450)) / 10.0
				+ ",\"resting_heart_rate\":" + random.nextInt(48, 80) + ",\"steps\":" + random.nextInt(20_000)
				+ "},\"recorded_at\":\"" + recordedAt + "\"}";
	}

	private static String batchBody(String member, int size) {
		StringBuilder body = new StringBuilder(size * 120).append("{\"records\":[");
		for (int i = 0; i < size; i++) {
			body.append((i > 0) ? "," : "").append(metricsBody(member, recently()));
		}
		return body.append("]}").toString();
	}

	private static String importBody(String member, int lines) {
		StringBuilder body = new StringBuilder(lines * 120);
		for (int i = 0; i < lines; i++) {
			body.append(metricsBody(member, recently())).append('\n');
		}
		return body.toString();
	}

	private static String assessmentBody(String member, int n) {
		return "{\"user_id\":\"" + member + "\",\"responses\":{\"smoker\":false,\"activity_level\":\"moderate\","
				+ "\"sleep_hours\":7,\"stress\":" + (1 + n % 5) + ",\"goals\":[\"endurance\"],\"notes\":\"check-in " + n
				+ "\"}}";
	}

	private static int lines(String body) {
		int lines = 0;
		for (int i = 0; i < body.length(); i++) {
			if (body.charAt(i) == '\n') {
				lines++;
			}
		}
		return lines;
	}

	/** Registers a partner and approves it on {@code plan}: its API key. */
	private String onboard(String adminToken, String plan) {
		if (plan == null) {
			throw new IllegalArgumentException("With adminToken, set plan (PLAN): a plan of the instance high "
					+ "enough for the load (its requests a minute), e.g. one added with APP_PLANS");
		}
		String email = "load-" + this.run + "-" + plan + "@load-test.example";
		String registration = field(
				send("POST", "/api/v1/auth", null,
						"{\"email\":\"" + email + "\",\"partner_name\":\"Load test " + this.run + "\"}", 202),
				"registration_id");
		return field(send("POST", "/admin/v1/registrations/" + registration + "/approve", adminToken,
				"{\"plan\":\"" + plan + "\"}", 201), "api_key");
	}

	private String send(String method, String path, String adminToken, String body, int expected) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.baseUrl + path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.method(method, HttpRequest.BodyPublishers.ofString(body));
		if (adminToken != null) {
			request.header("Authorization", "Bearer " + adminToken);
		}
		try {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(request.build(), HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != expected) {
				throw new IllegalStateException(
						method + " " + path + " answered " + response.statusCode() + ": " + response.body());
			}
			return response.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException(method + " " + path + " failed: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(method + " " + path + " was interrupted", ex);
		}
	}

	private static String field(String json, String name) {
		Matcher matcher = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
		if (!matcher.find()) {
			throw new IllegalStateException("no " + name + " in " + json);
		}
		return matcher.group(1);
	}

	private static String setting(String property, String environment, String otherwise) {
		String value = System.getProperty(property);
		if (value == null || value.isBlank()) {
			value = System.getenv(environment);
		}
		return (value == null || value.isBlank()) ? otherwise : value;
	}

}
