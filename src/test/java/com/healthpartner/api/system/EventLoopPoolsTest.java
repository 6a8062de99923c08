package com.healthpartner.api.system;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pools of {@link EventLoopPools}: one per loop of the web server and a shared one,
 * never more. A query made on another event loop (another client's, as a request that
 * continues where Redis answered it, or the management server's) is served by the shared
 * pool: a pool of that loop would outgrow the configured maximum and would be closed on a
 * loop its owner may have stopped already.
 */
class EventLoopPoolsTest extends IntegrationTest {

	@Autowired
	private EventLoopPools pools;

	@Autowired
	private ReactorResourceFactory resources;

	@Autowired
	private DatabaseClient db;

	@Test
	void thereIsAPoolForEachLoopOfTheWebServerAndTheSharedOne() {
		Set<String> expected = new LinkedHashSet<>();
		expected.add("shared");
		this.resources.getLoopResources()
			.onServer(true)
			.forEach((loop) -> expected.add(((SingleThreadEventExecutor) loop).threadProperties().name()));

		assertThat(this.pools.named().keySet()).containsExactlyInAnyOrderElementsOf(expected);
	}

	@Test
	void aQueryOnAnotherEventLoopIsServedByTheSharedPoolWithoutAPoolOfItsLoop() {
		Set<String> before = Set.copyOf(this.pools.named().keySet());
		MultiThreadIoEventLoopGroup other = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
		try {
			EventLoop loop = other.next();
			Mono.defer(() -> this.db.sql("select 41 + 1").map((row) -> row.get(0, Integer.class)).one())
				.subscribeOn(Schedulers.fromExecutor(loop))
				.as(StepVerifier::create)
				.expectNext(42)
				.verifyComplete();
		}
		finally {
			other.shutdownGracefully(0, 1, TimeUnit.SECONDS);
		}

		assertThat(this.pools.named().keySet()).isEqualTo(before).hasSize(before.size());
	}

}
