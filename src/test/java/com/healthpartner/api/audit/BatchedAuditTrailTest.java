package com.healthpartner.api.audit;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import com.healthpartner.api.support.FrozenDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit trail's writer against a database that stopped answering: a write is given up
 * on at its deadline instead of holding up every later one, events that no longer fit the
 * queue are counted as dropped, and a stop with unwritten events says how many are lost.
 */
@ExtendWith(OutputCaptureExtension.class)
class BatchedAuditTrailTest {

	private static final Duration DEADLINE = Duration.ofMillis(300);

	private final FrozenDatabase database = new FrozenDatabase();

	private final MeterRegistry meters = new SimpleMeterRegistry();

	private final BatchedAuditTrail trail = new BatchedAuditTrail(new AuditRepository(this.database.client()),
			Clock.systemUTC(), this.meters, 3, DEADLINE);

	@AfterEach
	void close() throws IOException {
		this.database.close();
	}

	@Test
	void aWriteToAFrozenDatabaseEndsAtItsDeadlineAndEventsThatNoLongerFitAreCountedAsDropped() {
		this.trail.enqueue(event());
		this.trail.enqueue(event());

		this.trail.flush()
			.as(StepVerifier::create)
			// while the two events are being written, three more fill the queue
			.then(() -> {
				for (int i = 0; i < 3; i++) {
					this.trail.enqueue(event());
				}
			})
			.expectComplete()
			.verify(Duration.ofSeconds(5));

		assertThat(this.meters.get("audit.events.dropped").counter().count()).isEqualTo(2);
		assertThat(this.meters.get("audit.events.pending").gauge().value()).isEqualTo(3);
		assertThat(this.trail.unwritten()).isEqualTo(3);
	}

	@Test
	void aStopWithEventsThatCouldNotBeWrittenSaysHowManyAreLost(CapturedOutput output) {
		this.trail.start();
		this.trail.enqueue(event());
		this.trail.enqueue(event());
		Sinks.Empty<Void> stopped = Sinks.empty();

		this.trail.stop(stopped::tryEmitEmpty);

		stopped.asMono().as(StepVerifier::create).expectComplete().verify(Duration.ofSeconds(5));
		assertThat(output.getAll()).containsPattern(
				"WARN.*2 audit events could not be written before the stop and are lost|\"log.level\":\"WARN\".*2 audit events could not be written");
	}

	private static AuditEvent event() {
		return new AuditEvent(UUID.randomUUID(), Instant.now(), UUID.randomUUID(), UUID.randomUUID(), "member-1",
				AuditEvent.Action.READ, "metrics", 1, "request-1");
	}

}
