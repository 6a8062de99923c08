package com.healthpartner.api.system;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.PoolMetrics;
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

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.ServiceInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An instance stopped (as on SIGTERM) while 64 partners' clients are writing: every write
 * it acknowledged is stored, and so is the audit event of each, written after the server
 * has drained its in-flight requests.
 */
class GracefulShutdownIT extends IntegrationTest {

	@Autowired
	DatabaseClient db;

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
