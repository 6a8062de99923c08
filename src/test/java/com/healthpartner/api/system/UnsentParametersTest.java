package com.healthpartner.api.system;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.r2dbc.postgresql.codec.Codec;
import io.r2dbc.postgresql.codec.DefaultCodecs;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import com.healthpartner.api.support.BufferLeaks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A parameter the service encodes that the driver never sends nor releases (its statement
 * cancelled before the Bind message is written: a request cut off, a deadline passed) is
 * no leak: its buffer is the garbage collector's, not the connection pool's.
 */
class UnsentParametersTest {

	@Test
	void aParameterDroppedBeforeItIsSentLeaksNothing() throws InterruptedException {
		DefaultCodecs codecs = new DefaultCodecs(ByteBufAllocator.DEFAULT);
		for (var registrar : List.of(new BinaryUuids(), new BinaryInstants(), new BinaryArrays())) {
			Mono.from(registrar.register(null, ByteBufAllocator.DEFAULT, codecs))
				.as(StepVerifier::create)
				.verifyComplete();
		}
		List<Object> values = List.of(UUID.randomUUID(), Instant.now(), new UUID[] { UUID.randomUUID() },
				new Instant[] { Instant.now() }, new Long[] { 7L }, new String[] { "steps" });
		List<String> leaks = new CopyOnWriteArrayList<>();
		BufferLeaks.Watch watch = BufferLeaks.watch();
		ByteBufUtil.setLeakListener((type, records) -> {
			// another test's leak in this JVM may be reported meanwhile: only these count
			if (records.contains(BinaryEncoder.class.getPackageName() + ".Binary")) {
				leaks.add(records);
			}
		});
		try {
			for (Object value : values) {
				Codec<?> codec = encoderOf(codecs, value);
				assertThat(codec).as("%s sent by the service's encoder", value.getClass())
					.isInstanceOf(BinaryEncoder.class);
				// written, then dropped as the driver drops a cancelled statement's
				assertThat(((BinaryEncoder) codec).write(value).readableBytes()).isPositive();
			}
			watch.end();
		}
		finally {
			ByteBufUtil.setLeakListener(null);
		}
		assertThat(leaks).isEmpty();
	}

	/** The codec the driver encodes {@code value} with: the first that can. */
	private static Codec<?> encoderOf(DefaultCodecs codecs, Object value) {
		for (Codec<?> codec : codecs) {
			if (codec.canEncode(value)) {
				return codec;
			}
		}
		return null;
	}

}
