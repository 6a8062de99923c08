package com.healthpartner.api.system;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.PoolMetrics;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.MediaType;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.reactive.function.client.WebClient;

import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.LockWaits;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;
import com.healthpartner.api.web.InFlightRequests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An instance stopped (as on SIGTERM) while partners are writing and reading: every write
 * it acknowledged is stored with its audit event (written by the write's own statement),
 * a request whose handler is under way holds the stop until it is answered, and the audit
 * event of a read (written by the periodic writer) is stored even when the read ends
 * during the stop.
 */
class GracefulShutdownIT extends IntegrationTest {

	@Autowired
	DatabaseClient db;

	@Autowired
	ConnectionFactory connections;

	@Test
	void everyWriteAcknowledgedBeforeShutdownIsStoredAndAudited() {
		ServiceInstance instance = ServiceInstance.start(Map.of());
		Credentials partner = new Partners(instance.client()).onboard("loadtest");
		String user = "member-" + UUID.randomUUID();
		WebClient client = WebClient
			.create("http://localhost:" + instance.context().getEnvironment().getProperty("local.server.port"));
		AtomicInteger answered = new AtomicInteger();
		AtomicInteger sentAfterStop = new AtomicInteger();
		CompletableFuture<Void> stopped = new CompletableFuture<>();

		// writes until the instance has stopped, however fast the machine serves them;
		// then 64 more, which a stopped instance cannot acknowledge
		List<Optional<String>> outcomes = Flux.range(0, 100_000)
			.takeWhile((i) -> !stopped.isDone() || sentAfterStop.getAndIncrement() < 64)
			.flatMap((i) -> post(client, partner.apiKey(), user).doOnNext((outcome) -> {
				// stop the instance once it is busy: requests are in flight, others still
				// to come
				if (answered.incrementAndGet() == 40) {
					CompletableFuture.runAsync(instance::close).whenComplete((ok, failure) -> stopped.complete(null));
				}
			}), 64)
			.collectList()
			.block(Duration.ofSeconds(60));

		List<String> acknowledged = outcomes.stream().flatMap(Optional::stream).toList();
		assertThat(stopped).as("the instance stopped while partners were writing").isDone();
		assertThat(sentAfterStop).as("writes sent after the instance stopped").hasValueGreaterThanOrEqualTo(64);
		assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(40).hasSizeLessThanOrEqualTo(outcomes.size() - 64);
		this.db
			.sql("select count(*) from metric_records where partner_id = :partner and id = any(cast(:ids as uuid[]))")
			.bind("partner", UUID.fromString(partner.partnerId()))
			.bind("ids", acknowledged.toArray(String[]::new))
			.map((row) -> row.get(0, Long.class))
			.one()
			.as(StepVerifier::create)
			.expectNext((long) acknowledged.size())
			.verifyComplete();
		this.db.sql("select count(*) from audit_events where partner_id = :partner and action = 'write'")
			.bind("partner", UUID.fromString(partner.partnerId()))
			.map((row) -> row.get(0, Long.class))
			.one()
			.as(StepVerifier::create)
			.expectNext((long) acknowledged.size())
			.verifyComplete();
	}

	/**
	 * A write whose handler is under way when the stop begins (its body still arriving)
	 * holds the stop: meanwhile requests that have not reached their handler are refused
	 * with {@code 503}; the write is then acknowledged, and it and its audit event are
	 * stored.
	 */
	@Test
	void aWriteUnderWayWhenTheStopBeginsHoldsItAndIsStoredAndAudited() throws Exception {
		ServiceInstance instance = ServiceInstance.start(Map.of());
		Credentials partner = new Partners(instance.client()).onboard("loadtest");
		int port = Integer.parseInt(instance.context().getEnvironment().getProperty("local.server.port"));
		WebClient client = WebClient.create("http://localhost:" + port);
		String body = "{\"user_id\": \"held-write\", \"metrics\": {\"weight\": 70}}";
		int split = 10;
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			out.write(("POST /api/v1/health/metrics HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
					+ "Connection: close\r\nx-api-key: " + partner.apiKey() + "\r\nContent-Length: "
					+ body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body.substring(0, split))
				.getBytes(StandardCharsets.UTF_8));
			out.flush();
			InFlightRequests inFlight = instance.context().getBean(InFlightRequests.class);
			assertThat(Eventually.eventually(Duration.ofSeconds(10), () -> inFlight.handling() == 1))
				.as("the write reached its handler")
				.isTrue();

			Thread closer = new Thread(instance::close, "closer");
			closer.start();
			// reads, which write nothing even if served: the first ones may come before
			// the drain begins
			ObservedAnswer refused = Eventually.eventually(Duration.ofSeconds(20),
					() -> read(client, partner.apiKey(), "/api/v1/health/metrics?user_id=held-write"),
					(answer) -> answer.status() == 503);
			assertThat(refused.status()).as(refused.body()).isEqualTo(503);
			assertThat(refused.body()).contains("shutting down").contains("nothing was written");
			assertThat(closer.isAlive()).as("the stop waits for the write under way").isTrue();

			out.write(body.substring(split).getBytes(StandardCharsets.UTF_8));
			out.flush();
			ByteArrayOutputStream answer = new ByteArrayOutputStream();
			socket.getInputStream().transferTo(answer);
			String text = answer.toString(StandardCharsets.UTF_8);
			assertThat(text).startsWith("HTTP/1.1 201").contains("\"user_id\":\"held-write\"");
			closer.join(Duration.ofSeconds(60).toMillis());
			assertThat(closer.isAlive()).as("the stop ended").isFalse();
		}
		this.db.sql("select count(*) from metric_records where partner_id = :partner")
			.bind("partner", UUID.fromString(partner.partnerId()))
			.map((row) -> row.get(0, Long.class))
			.one()
			.as(StepVerifier::create)
			.expectNext(1L)
			.verifyComplete();
		this.db.sql("select count(*) from audit_events where partner_id = :partner and action = 'write'")
			.bind("partner", UUID.fromString(partner.partnerId()))
			.map((row) -> row.get(0, Long.class))
			.one()
			.as(StepVerifier::create)
			.expectNext(1L)
			.verifyComplete();
	}

	/**
	 * A read whose statement waits (for a lock the test holds) when the stop begins holds
	 * the stop; once answered, its audit event, which the periodic writer writes, is
	 * stored: that writer stops only after every handler under way has ended.
	 */
	@Test
	void aReadUnderWayWhenTheStopBeginsIsAnsweredAndAudited() throws Exception {
		// deadlines past the time the test holds the read's statement
		ServiceInstance instance = ServiceInstance
			.start(Map.of("app.database.statement-deadline", "30s", "app.database.statement-timeout", "30s"));
		Credentials partner = new Partners(instance.client()).onboard("loadtest");
		WebClient client = WebClient
			.create("http://localhost:" + instance.context().getEnvironment().getProperty("local.server.port"));
		InFlightRequests inFlight = instance.context().getBean(InFlightRequests.class);
		Connection blocker = Mono.from(this.connections.create()).block(Duration.ofSeconds(10));
		Thread closer = new Thread(instance::close, "closer");
		CompletableFuture<ObservedAnswer> held;
		try {
			Mono.from(blocker.beginTransaction()).block(Duration.ofSeconds(10));
			Flux.from(blocker.createStatement("lock table metric_records in access exclusive mode").execute())
				.flatMap(Result::getRowsUpdated)
				.blockLast(Duration.ofSeconds(10));
			held = answer(client, partner.apiKey(), "/api/v1/health/metrics?user_id=held-read").toFuture();
			assertThat(Eventually.eventually(Duration.ofSeconds(10),
					() -> inFlight.handling() == 1 && LockWaits.count(this.db) == 1))
				.as("the read's statement waits for the lock")
				.isTrue();

			closer.start();
			// reads of another kind, which the lock does not hold: the first ones may
			// come before the drain begins
			ObservedAnswer refused = Eventually.eventually(Duration.ofSeconds(20),
					() -> read(client, partner.apiKey(), "/api/v1/health/assessments?user_id=someone-else"),
					(answer) -> answer.status() == 503);
			assertThat(refused.status()).as(refused.body()).isEqualTo(503);
			assertThat(closer.isAlive()).as("the stop waits for the read under way").isTrue();
			assertThat(held).isNotDone();
		}
		finally {
			Mono.from(blocker.rollbackTransaction()).then(Mono.from(blocker.close())).block(Duration.ofSeconds(10));
		}
		ObservedAnswer answered = held.get(30, TimeUnit.SECONDS);
		assertThat(answered.status()).as(answered.body()).isEqualTo(200);
		assertThat(answered.body()).contains("\"data\":[]");
		closer.join(Duration.ofSeconds(60).toMillis());
		assertThat(closer.isAlive()).as("the stop ended").isFalse();
		this.db
			.sql("select count(*) from audit_events where partner_id = :partner and action = 'read' "
					+ "and resource = 'metrics' and user_id = 'held-read'")
			.bind("partner", UUID.fromString(partner.partnerId()))
			.map((row) -> row.get(0, Long.class))
			.one()
			.as(StepVerifier::create)
			.expectNext(1L)
			.verifyComplete();
	}

	private record ObservedAnswer(int status, String body) {
	}

	/** What a GET of {@code path} answers; {@code 0} for no answer. */
	private static ObservedAnswer read(WebClient client, String apiKey, String path) {
		return answer(client, apiKey, path).block(Duration.ofSeconds(10));
	}

	private static Mono<ObservedAnswer> answer(WebClient client, String apiKey, String path) {
		return client.get()
			.uri(path)
			.header("x-api-key", apiKey)
			.exchangeToMono((response) -> response.bodyToMono(String.class)
				.defaultIfEmpty("")
				.map((text) -> new ObservedAnswer(response.statusCode().value(), text)))
			.onErrorResume((failure) -> Mono.just(new ObservedAnswer(0, failure.toString())));
	}

	/**
	 * Stopping closes every database pool while the event loops that serve its
	 * connections still run: each connection says goodbye to PostgreSQL, and no pool's
	 * closing fails on a loop already shut down (which logged a warning and, racing with
	 * the logging system's own shutdown, a line that is not JSON).
	 */
	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void stoppingClosesTheDatabasePoolsBeforeTheLoopsTheirConnectionsRunOn(CapturedOutput output) {
		ServiceInstance instance = ServiceInstance.start(Map.of());
		Credentials partner = new Partners(instance.client()).onboard("loadtest");
		WebClient client = WebClient
			.create("http://localhost:" + instance.context().getEnvironment().getProperty("local.server.port"));
		// requests at once over many connections, so that every loop's pool holds
		// connections
		Flux.range(0, 64)
			.flatMap((i) -> post(client, partner.apiKey(), "member-" + UUID.randomUUID()), 64)
			.blockLast(Duration.ofSeconds(30));
		EventLoopPools pools = instance.context().getBean(EventLoopPools.class);
		List<ConnectionPool> all = pools.pools();
		assertThat(all).hasSizeGreaterThan(1);
		assertThat(pools.total(PoolMetrics::allocatedSize)).isPositive();
		// whether every pool was closed by the time the web server's loops had stopped
		CompletableFuture<Boolean> poolsClosedWhenLoopsStopped = new CompletableFuture<>();
		instance.context()
			.getBean(ReactorResourceFactory.class)
			.getLoopResources()
			.onServer(LoopResources.hasNativeSupport())
			.terminationFuture()
			.addListener(
					(done) -> poolsClosedWhenLoopsStopped.complete(all.stream().allMatch(ConnectionPool::isDisposed)));

		instance.close();

		assertThat(poolsClosedWhenLoopsStopped).succeedsWithin(Duration.ofSeconds(30)).isEqualTo(true);
		assertThat(all).allMatch(ConnectionPool::isDisposed);
		assertThat(output).doesNotContain("propagated an exception").doesNotContain("RejectedExecutionException");
	}

	/** The id of the stored record when the write was acknowledged (201), else empty. */
	private static Mono<Optional<String>> post(WebClient client, String apiKey, String user) {
		return client.post()
			.uri("/api/v1/health/metrics")
			.header("x-api-key", apiKey)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"user_id\": \"" + user + "\", \"metrics\": {\"weight\": 72.5}}")
			.exchangeToMono((response) -> (response.statusCode().value() == 201)
					? response.bodyToMono(Map.class).map((body) -> Optional.of((String) body.get("id")))
					: response.releaseBody().thenReturn(Optional.<String>empty()))
			.onErrorReturn(Optional.empty());
	}

}
