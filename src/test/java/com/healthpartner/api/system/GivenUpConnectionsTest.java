package com.healthpartner.api.system;

import java.time.Duration;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;

import com.healthpartner.api.support.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pooled connection whose statement was given up before PostgreSQL answered it is
 * closed, never lent again; one whose statement was answered (even if its reader stopped
 * after the first row) goes back to its pool. The connections come from the service's own
 * pools; on this test's thread (no event loop) that is the shared pool.
 */
class GivenUpConnectionsTest extends IntegrationTest {

	@Autowired
	private ConnectionFactory connections;

	@Test
	void aConnectionWhoseStatementWasGivenUpBeforeItsAnswerIsNotLentAgain() {
		int pid = Mono
			.usingWhen(this.connections.create(),
					(connection) -> pid(connection).flatMap((backend) -> Flux
						.from(connection.createStatement("select pg_sleep($1)").bind(0, 5).execute())
						.flatMap((result) -> result.map((row) -> row))
						.then()
						.timeout(Duration.ofMillis(300))
						.onErrorResume((timeout) -> Mono.empty())
						.thenReturn(backend)),
					Connection::close)
			.block(Duration.ofSeconds(10));

		Flux.range(0, 8)
			.concatMap((i) -> Mono.usingWhen(this.connections.create(), GivenUpConnectionsTest::pid, Connection::close))
			.as(StepVerifier::create)
			.thenConsumeWhile((other) -> other != pid)
			.verifyComplete();
	}

	@Test
	void aConnectionWhoseReaderStoppedAfterTheFirstRowIsLentAgain() {
		int pid = Mono.usingWhen(this.connections.create(),
				(connection) -> pid(connection).flatMap((backend) -> Flux
					.from(connection.createStatement("select n from generate_series(1, 100000) n").execute())
					.flatMap((result) -> result.map((row) -> row.get(0, Integer.class)))
					.next()
					.thenReturn(backend)),
				Connection::close)
			.block(Duration.ofSeconds(10));

		// all of the shared pool's connections at once (background sweeps may hold one
		// for a moment; then the last acquire waits for it): it is among them, a closed
		// one would have been replaced by a new one
		Flux.range(0, DatabaseConfiguration.SHARED_POOL_SIZE)
			.flatMap((i) -> this.connections.create(), DatabaseConfiguration.SHARED_POOL_SIZE)
			.collectList()
			.flatMap((held) -> Flux.fromIterable(held)
				.concatMap(GivenUpConnectionsTest::pid)
				.collectList()
				.flatMap((pids) -> Flux.fromIterable(held).concatMap(Connection::close).then(Mono.just(pids))))
			.as(StepVerifier::create)
			.assertNext((pids) -> assertThat(pids).contains(pid))
			.verifyComplete();
	}

	private static Mono<Integer> pid(Connection connection) {
		return Flux.from(connection.createStatement("select pg_backend_pid()").execute())
			.flatMap((result) -> result.map((row) -> row.get(0, Integer.class)))
			.single();
	}

}
