package com.healthpartner.api.imports;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.support.PartnerTest;
import com.healthpartner.api.system.EventLoopPools;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The body of an import stored by COPY as it arrives, a row per chunk: every line that
 * holds something read back numbered as in the file, its text as sent; a body over the
 * limit stores nothing.
 */
class ImportLinesTest extends PartnerTest {

	@Autowired
	private EventLoopPools pools;

	@Test
	void aBodyOfManyChunksIsStoredChunkByChunk() {
		UUID id = newImport();
		int lines = 100_000;
		StepVerifier
			.create(new ImportLines(this.pools.unwrap(), () -> false, 1 << 20, 5000, 2 << 20).store(id, Mono.empty(),
					body(lines, 64 * 1024), 1L << 30, PooledByteBufAllocator.DEFAULT, Mono::just))
			.assertNext((stored) -> {
				assertThat(stored.lines()).isEqualTo(lines);
				// chunks of 5,000 lines (each line is far below 2 MB / 5,000)
				assertThat(stored.chunkStarts()).hasSize(20).startsWith(1, 5001, 10001).endsWith(95001);
			})
			.expectComplete()
			.verify(Duration.ofSeconds(60));
		// a row per chunk, the first line of each its key
		assertThat(this.db.sql("select count(*), max(line) from import_lines where import_id = :id")
			.bind("id", id)
			.map((row) -> row.get(0, Long.class) + "/" + row.get(1, Long.class))
			.one()
			.block()).isEqualTo("20/95001");
		// read back: every line with its number and text as sent (the text from its
		// first byte that is not a space, tab or carriage return)
		StepVerifier.create(new ImportRepository(this.db, null).lines(id, 1, Long.MAX_VALUE).collectList())
			.assertNext((read) -> {
				assertThat(read).hasSize(lines);
				assertThat(read.get(6))
					.isEqualTo(new ImportRepository.Line(7, line(7).substring(0, line(7).length() - 1)));
				assertThat(read.get(lines - 1).line()).isEqualTo(lines);
			})
			.expectComplete()
			.verify(Duration.ofSeconds(30));
	}

	@Test
	void whileTheServiceIsBusyAnUploadIsReadAtTheBusyRate() {
		UUID id = newImport();
		int lines = 40_000;
		long bytes = (long) lines * line(1).length();
		long started = System.nanoTime();
		StepVerifier
			.create(new ImportLines(this.pools.unwrap(), () -> true, 1 << 20, 5000, 2 << 20).store(id, Mono.empty(),
					body(lines, 64 * 1024), 1L << 30, PooledByteBufAllocator.DEFAULT, Mono::just))
			.assertNext((stored) -> assertThat(stored.lines()).isEqualTo(lines))
			.expectComplete()
			.verify(Duration.ofSeconds(60));
		double seconds = (System.nanoTime() - started) / 1e9;
		// the last chunk's share of the time is not waited for
		assertThat(seconds).as("%d bytes at 1 MiB/s", bytes).isGreaterThan((bytes - 64 * 1024) / (double) (1 << 20));
	}

	@Test
	void aBodyOverTheLimitStoresNothing() {
		UUID id = newImport();
		StepVerifier
			.create(new ImportLines(this.pools.unwrap(), () -> false, 1 << 20, 5000, 2 << 20).store(id, Mono.empty(),
					body(10_000, 4096), 100_000, PooledByteBufAllocator.DEFAULT, Mono::just))
			.expectErrorSatisfies((failure) -> assertThat(failure).isInstanceOf(ApiException.class)
				.hasMessageContaining("larger than 100000 bytes"))
			.verify(Duration.ofSeconds(30));
		assertThat(this.db.sql("select count(*) from import_lines where import_id = :id")
			.bind("id", id)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block()).isZero();
	}

	@Test
	void anImportIsAdmittedOnlyOnceItsUploadHoldsTheLockSoNoInstanceTakesItForAbandoned() {
		UUID id = UUID.randomUUID();
		// while the import is admitted, another connection finds its receiving lock
		// taken,
		// and an instance dropping abandoned uploads (with a clock far ahead) leaves it
		Mono<Boolean> lockFree = this.db
			.sql("select pg_try_advisory_xact_lock(" + ImportLines.RECEIVING_LOCK.formatted("cast(:id as text)") + ")")
			.bind("id", id.toString())
			.map((row) -> row.get(0, Boolean.class))
			.one();
		ImportRepository imports = new ImportRepository(this.db, null);
		Mono<Long> admitted = insertImport(id).then(lockFree)
			.doOnNext(
					(free) -> assertThat(free).as("the receiving lock is free while the import is admitted").isFalse())
			.then(imports.abandoned(Instant.now().plus(Duration.ofDays(1))));
		StepVerifier
			.create(new ImportLines(this.pools.unwrap(), () -> false, 1 << 20, 5000, 2 << 20).store(id, admitted,
					body(10, 4096), 1L << 30, PooledByteBufAllocator.DEFAULT, Mono::just))
			.assertNext((stored) -> assertThat(stored.lines()).isEqualTo(10))
			.expectComplete()
			.verify(Duration.ofSeconds(30));
		assertThat(this.db.sql("select count(*) from imports where id = :id")
			.bind("id", id)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block()).as("the import is still there").isEqualTo(1);
	}

	private UUID newImport() {
		UUID id = UUID.randomUUID();
		insertImport(id).block();
		return id;
	}

	/**
	 * An import receiving its upload, made an hour ahead: once its lines are stored its
	 * receiving lock is let go while it is still {@code receiving} (the route would move
	 * it on), and the import worker running beside the tests would drop it as abandoned
	 * before the test looks at it.
	 */
	private Mono<Void> insertImport(UUID id) {
		return this.db.sql("""
				insert into imports (id, partner_id, key_id, request_id, resource, status, created_at)
				values (:id, cast(:partner as uuid), :key, 'test', 'metrics', 'receiving', now() + interval '1 hour')
				""").bind("id", id).bind("partner", this.partner.partnerId()).bind("key", UUID.randomUUID()).then();
	}

	/**
	 * {@code lines} lines of NDJSON in chunks of about {@code chunk} bytes, made as read.
	 */
	private Flux<DataBuffer> body(int lines, int chunk) {
		AtomicLong next = new AtomicLong(1);
		return Flux.generate((sink) -> {
			if (next.get() > lines) {
				sink.complete();
				return;
			}
			StringBuilder text = new StringBuilder(chunk + 200);
			while (text.length() < chunk && next.get() <= lines) {
				text.append(line(next.getAndIncrement()));
			}
			sink.next(DefaultDataBufferFactory.sharedInstance.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
		});
	}

	private static String line(long n) {
		return "{\"user_id\": \"member-" + (n % 100)
				+ "\", \"metrics\": {\"weight\": 70.5}, \"note\": \"a\\\\b\\tc\"}\r\n";
	}

}
