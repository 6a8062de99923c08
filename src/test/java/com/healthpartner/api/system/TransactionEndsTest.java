package com.healthpartner.api.system;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Wrapped;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.support.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transactions end whole on the service's connections ({@link GuardedConnection}): a
 * transaction given up by another thread (a client gone, a sibling chunk failed) rolls
 * back every statement of it, including one its own thread hands the driver at that
 * moment, and a connection is lent, and goes back to its pool, outside any transaction.
 */
class TransactionEndsTest extends IntegrationTest {

	@Autowired
	private EventLoopPools pools;

	@Autowired
	private DatabaseClient db;

	@Autowired
	private TransactionalOperator transaction;

	@BeforeEach
	void probe() {
		this.db.sql("create table transaction_ends_probe (attempt int, step int)").then().block();
	}

	@AfterEach
	void dropProbe() {
		this.db.sql("drop table transaction_ends_probe").then().block();
	}

	@Test
	void aStatementHandedOverAfterItsTransactionsRollbackIsRefusedNotCommittedOnItsOwn() throws Exception {
		Connection connection = Mono.from(this.pools.create()).block(Duration.ofSeconds(10));
		try {
			StepVerifier.create(Mono.from(connection.beginTransaction())).verifyComplete();
			StepVerifier.create(insert(connection, 1, 0)).expectNext(1L).verifyComplete();
			// the rollback is asked for first (by the thread that gave the transaction
			// up), the transaction's next statement handed over after it
			CompletableFuture<Void> rolledBack = Mono.from(connection.rollbackTransaction()).toFuture();
			StepVerifier.create(insert(connection, 1, 1))
				.expectErrorSatisfies((refused) -> assertThat(refused)
					.hasMessage("Not sent: the transaction on this connection had ended (committed or rolled back)"))
				.verify(Duration.ofSeconds(10));
			rolledBack.get(10, TimeUnit.SECONDS);
		}
		finally {
			Mono.from(connection.close()).block(Duration.ofSeconds(10));
		}
		assertThat(rows()).as("rows of the rolled-back transaction").isZero();
	}

	@Test
	void transactionsGivenUpMidwayByAnotherThreadLeaveNoneOfTheirRows() throws Exception {
		int attempts = 1500;
		int steps = 50;
		Set<Integer> completed = ConcurrentHashMap.newKeySet();
		for (int a = 0; a < attempts; a++) {
			int attempt = a;
			Disposable running = Flux.range(0, steps)
				.concatMap((step) -> this.db.sql("insert into transaction_ends_probe values (:attempt, :step)")
					.bind("attempt", attempt)
					.bind("step", step)
					.then())
				.then()
				.as(this.transaction::transactional)
				.doOnSuccess((done) -> completed.add(attempt))
				.subscribeOn(Schedulers.parallel())
				.subscribe();
			LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(100_000, 3_000_000));
			running.dispose();
		}
		// each rollback was sent when its transaction was given up; a row committed on
		// its own would show by the time a later transaction of the test has run
		StepVerifier.create(this.db.sql("select 1").then().as(this.transaction::transactional)).verifyComplete();
		Thread.sleep(500);
		// on a fast machine some transactions commit, all 50 statements, before they are
		// given up (or while their commit is under way): those end whole too
		Map<Integer, Long> left = rowsByAttempt();
		assertThat(left).as("rows left by each of %d transactions given up at random", attempts)
			.allSatisfy((attempt, rows) -> assertThat(rows).as("rows of attempt %d", attempt).isEqualTo(steps));
		assertThat(left.keySet()).as("transactions that committed before they were given up").containsAll(completed);
		assertThat(attempts - left.size()).as("transactions given up midway, none of whose rows is left")
			.isGreaterThan(attempts / 2);
	}

	@Test
	void aConnectionLeftInATransactionNoLendBeganIsLentOutsideItAndStatementsOfALendCommit() {
		ConnectionPool one = new ConnectionPool(
				ConnectionPoolConfiguration.builder(this.pools.unwrap()).name("transaction-ends").maxSize(1).build());
		EventLoopPools pools = new EventLoopPools(List.of(), (loop) -> null, one, this.pools.unwrap());
		try {
			// the pool takes back a connection in a transaction that no lend began, as
			// r2dbc-pool does with one whose lend was given up while its BEGIN was under
			// way
			Connection first = Mono.from(pools.create()).block(Duration.ofSeconds(10));
			begin(physical(first));
			Mono.from(((GuardedConnection) first).unwrap().close()).block(Duration.ofSeconds(10));
			Connection second = Mono.from(pools.create()).block(Duration.ofSeconds(10));
			StepVerifier.create(insert(second, 2, 0)).expectNext(1L).verifyComplete();
			Mono.from(second.close()).block(Duration.ofSeconds(10));
			assertThat(rows()).as("a statement of the next lend, seen from another connection").isEqualTo(1);

			// such a BEGIN answered after a lend has sent statements of its own
			Connection third = Mono.from(pools.create()).block(Duration.ofSeconds(10));
			begin(physical(third));
			StepVerifier.create(insert(third, 3, 0)).expectNext(1L).verifyComplete();
			Mono.from(third.close()).block(Duration.ofSeconds(10));
			assertThat(rows()).as("a statement sent inside a transaction its lend did not begin").isEqualTo(2);
		}
		finally {
			one.disposeLater().block(Duration.ofSeconds(10));
		}
	}

	private static Mono<Long> insert(Connection connection, int attempt, int step) {
		return Flux
			.from(connection.createStatement("insert into transaction_ends_probe values ($1, $2)")
				.bind(0, attempt)
				.bind(1, step)
				.execute())
			.flatMap(Result::getRowsUpdated)
			.single();
	}

	/** The driver's connection under a lent one (neither the guard nor the pool sees). */
	private static Connection physical(Connection lent) {
		Connection pooled = ((GuardedConnection) lent).unwrap();
		return (Connection) ((Wrapped<?>) pooled).unwrap();
	}

	private static void begin(Connection physical) {
		Flux.from(physical.createStatement("begin").execute())
			.flatMap(Result::getRowsUpdated)
			.then()
			.block(Duration.ofSeconds(10));
	}

	private Map<Integer, Long> rowsByAttempt() {
		return this.db.sql("select attempt, count(*) from transaction_ends_probe group by attempt")
			.map((row) -> Map.entry(row.get(0, Integer.class), row.get(1, Long.class)))
			.all()
			.collectMap(Map.Entry::getKey, Map.Entry::getValue)
			.block(Duration.ofSeconds(10));
	}

	private long rows() {
		return this.db.sql("select count(*) from transaction_ends_probe")
			.map((row) -> row.get(0, Long.class))
			.one()
			.block(Duration.ofSeconds(10));
	}

}
