package com.healthpartner.api.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.client.ReactorResourceFactory;

import com.healthpartner.api.records.PageReads;
import com.healthpartner.api.support.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A result of thousands of rows, megabytes that arrive in many reads on an event loop's
 * own connection ({@link FrameCumulation}), reaches its reader whole, row by row, in
 * order.
 */
class LargeResultsTest extends IntegrationTest {

	private static final int ROWS = 5000;

	@Autowired
	private PageReads reads;

	@Autowired
	private ReactorResourceFactory resources;

	@Autowired
	private EventLoopPools pools;

	@Test
	void aResultOfManyReadsArrivesWhole() {
		PageReads.Positional statement = PageReads.Positional
			.of("select n, repeat(chr(97 + n % 26), 200 + n % 700) as text from generate_series(1, :rows) n");
		EventLoop loop = this.resources.getLoopResources().onServer(true).next();
		List<String> read = new ArrayList<>();
		Mono.defer(() -> this.reads.rows(statement, (name) -> ROWS,
				(row) -> read.add(row.get(0, Integer.class) + ":" + row.get(1, String.class))))
			.subscribeOn(Schedulers.fromExecutor(loop))
			.as(StepVerifier::create)
			.expectComplete()
			.verify(Duration.ofSeconds(30));

		// read through the loop's own pool, whose connections that loop serves
		assertThat(this.pools.named()).containsKey(((SingleThreadEventExecutor) loop).threadProperties().name());
		assertThat(read).hasSize(ROWS);
		for (int n = 1; n <= ROWS; n++) {
			assertThat(read.get(n - 1)).isEqualTo(n + ":" + String.valueOf((char) (97 + n % 26)).repeat(200 + n % 700));
		}
	}

}
