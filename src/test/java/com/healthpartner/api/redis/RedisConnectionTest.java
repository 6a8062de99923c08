package com.healthpartner.api.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import com.healthpartner.api.support.MutableClock;
import com.healthpartner.api.support.TestInfrastructure;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis connection as an operator sees it: opened without a warning, in the database
 * that {@code SPRING_DATA_REDIS_URL} names.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisConnectionTest {

	private static final String URL = TestInfrastructure.redis().url();

	private final MutableClock clock = new MutableClock();

	@Test
	void connectsWithoutChannelOptionWarnings(CapturedOutput output) {
		RedisStore store = connected(URL);
		try {
			store.ping().as(StepVerifier::create).expectNext(true).verifyComplete();
		}
		finally {
			store.stop();
		}
		assertThat(output).doesNotContain("Unknown channel option");
	}

	@Test
	void keepsItsKeysInTheDatabaseTheUrlNames() {
		RedisStore database5 = connected(URL + "/5");
		RedisStore database0 = connected(URL);
		String key = "redis-connection-test:" + System.nanoTime();
		try {
			database5.call((redis) -> redis.set(key, "here"), () -> Mono.just("fallback"))
				.as(StepVerifier::create)
				.expectNext("OK")
				.verifyComplete();
			database5.call((redis) -> redis.get(key), () -> Mono.just("fallback"))
				.as(StepVerifier::create)
				.expectNext("here")
				.verifyComplete();
			database0.call((redis) -> redis.exists(key), () -> Mono.just(-1L))
				.as(StepVerifier::create)
				.expectNext(0L)
				.verifyComplete();
			database5.call((redis) -> redis.del(key), () -> Mono.just(-1L))
				.as(StepVerifier::create)
				.expectNext(1L)
				.verifyComplete();
		}
		finally {
			database5.stop();
			database0.stop();
		}
	}

	/**
	 * A request that asks Redis on its event loop goes on on that loop, not on the one
	 * thread of Lettuce that answers every request of the instance.
	 */
	@Test
	void aCallerOnAnEventLoopGoesOnOnItsLoop() {
		RedisStore store = connected(URL);
		MultiThreadIoEventLoopGroup callers = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
		try {
			EventLoop loop = callers.next();
			Mono.defer(() -> store.call((redis) -> redis.ping(), () -> Mono.just("fallback")))
				.map((answer) -> answer + " on the caller's loop: " + loop.inEventLoop())
				.subscribeOn(Schedulers.fromExecutor(loop))
				.as(StepVerifier::create)
				.expectNext("PONG on the caller's loop: true")
				.verifyComplete();
		}
		finally {
			store.stop();
			callers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
		}
	}

	@Test
	void stoppingEndsOnceLettucesEventLoopsHaveStopped() {
		RedisStore store = connected(URL);
		CompletableFuture<Boolean> loopsStoppedWhenDone = new CompletableFuture<>();

		store.stop(() -> loopsStoppedWhenDone.complete(store.resources().eventExecutorGroup().isTerminated()));

		assertThat(loopsStoppedWhenDone).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
		assertThat(store.isRunning()).isFalse();
	}

	/**
	 * A store whose connection is open. The first connection in a JVM can take longer
	 * than a command's 500 ms (Lettuce's classes and event loops), and a command that
	 * gives up on it shuts Redis out for a few seconds: the pings until then are made on
	 * a clock moved past that pause each time.
	 */
	private RedisStore connected(String url) {
		RedisStore store = new RedisStore(url, this.clock, new SimpleMeterRegistry());
		store.start();
		Mono.defer(() -> {
			this.clock.advance(RedisStore.RETRY_AFTER_FAILURE);
			return store.ping();
		})
			.filter(Boolean::booleanValue)
			.repeatWhenEmpty(20, (tries) -> tries)
			.as(StepVerifier::create)
			.expectNext(true)
			.verifyComplete();
		return store;
	}

}
