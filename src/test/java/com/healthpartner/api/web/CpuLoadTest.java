package com.healthpartner.api.web;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cores count as full only while a request is under way and the last sample found the
 * machine at least 90 % busy: busy cores without requests are the background work's own,
 * and requests on idle cores leave it room.
 */
class CpuLoadTest {

	private final AtomicInteger requests = new AtomicInteger();

	private final AtomicReference<Double> machine = new AtomicReference<>(0.0);

	private final CpuLoad cpu = new CpuLoad(this.requests::get, this.machine::get);

	@Test
	void saturatedOnlyWithRequestsUnderWayOnBusyCores() {
		assertThat(saturatedAt(0.95, 0)).isFalse();
		assertThat(saturatedAt(0.5, 3)).isFalse();
		assertThat(saturatedAt(0.89, 3)).isFalse();
		assertThat(saturatedAt(0.9, 1)).isTrue();
		assertThat(saturatedAt(1.0, 64)).isTrue();
	}

	@Test
	void theLastSampleCountsUntilTheNext() {
		assertThat(saturatedAt(1.0, 1)).isTrue();
		this.machine.set(0.2);
		assertThat(this.cpu.saturated()).isTrue();
		this.cpu.sample();
		assertThat(this.cpu.saturated()).isFalse();
	}

	@Test
	void whereTheMachineCannotTellTheRequestsAloneDecide() {
		assertThat(saturatedAt(-1.0, 1)).isTrue();
		assertThat(saturatedAt(-1.0, 0)).isFalse();
	}

	@Test
	void requestsAreUnderWayWhateverTheCoresDo() {
		assertThat(saturatedAt(0.1, 2)).isFalse();
		assertThat(this.cpu.requestsUnderWay()).isTrue();
		assertThat(saturatedAt(1.0, 0)).isFalse();
		assertThat(this.cpu.requestsUnderWay()).isFalse();
	}

	private boolean saturatedAt(double load, int underWay) {
		this.machine.set(load);
		this.requests.set(underWay);
		this.cpu.sample();
		return this.cpu.saturated();
	}

}
