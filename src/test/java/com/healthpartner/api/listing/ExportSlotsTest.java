package com.healthpartner.api.listing;

import java.time.Duration;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.system.DatabaseProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The instance-wide cap of concurrent exports, which a test through HTTP would need as
 * many stalled exports as the cap (the per-partner cap is tested through HTTP in
 * {@code ConcurrentExportsTest}).
 */
class ExportSlotsTest {

	private final MeterRegistry meters = new SimpleMeterRegistry();

	private final ExportSlots slots = new ExportSlots(new DatabaseProperties(Duration.ofSeconds(2),
			Duration.ofSeconds(5), Duration.ofSeconds(2), 16384, Duration.ofMinutes(10), Duration.ofSeconds(60), 3, 2),
			this.meters);

	@Test
	void anInstanceRunsAtMostItsCapOfExportsWhateverThePartners() {
		UUID first = UUID.randomUUID();
		UUID second = UUID.randomUUID();
		ExportSlots.Slot a = this.slots.acquire(first);
		this.slots.acquire(first);
		this.slots.acquire(second);

		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.slots.acquire(UUID.randomUUID()))
			.satisfies((refused) -> {
				assertThat(refused.type()).isEqualTo(ProblemType.RATE_LIMITED);
				assertThat(refused.headers()).containsEntry(HttpHeaders.RETRY_AFTER, "10");
				assertThat(refused.getMessage()).contains("This instance already runs 3 NDJSON exports")
					.contains("concurrent-export limit");
			});
		assertThat(this.meters.get("api.exports.refused").tag("limit", "instance").counter().count()).isEqualTo(1);

		// a slot given back twice (completion and cancel racing) frees one place
		a.release();
		a.release();
		assertThat(this.meters.get("api.exports.running").gauge().value()).isEqualTo(2);
		this.slots.acquire(UUID.randomUUID());
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.slots.acquire(UUID.randomUUID()));
	}

}
