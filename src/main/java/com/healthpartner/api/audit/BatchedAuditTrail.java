package com.healthpartner.api.audit;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.Principals;
import com.healthpartner.api.system.PeriodicFlush;
import com.healthpartner.api.web.RequestIds;
import com.healthpartner.api.web.Timestamps;

/**
 * Keeps audit events in a bounded queue and writes them in one statement per batch every
 * half second, so that a read or write of health data costs no extra database round trip.
 * It stops after the web server has drained (a lower phase than the server's), so the
 * events of the last in-flight requests are written too. While the database is down
 * events wait in the queue; past its bound they are dropped and counted
 * ({@code audit_events_dropped_total}), because memory must stay bounded.
 */
@Component
class BatchedAuditTrail extends PeriodicFlush implements AuditTrail {

	private static final Log log = LogFactory.getLog(BatchedAuditTrail.class);

	static final int CAPACITY = 100_000;

	private static final int BATCH = 1_000;

	private static final Duration FLUSH_EVERY = Duration.ofMillis(500);

	private final Queue<AuditEvent> pending = new ArrayBlockingQueue<>(CAPACITY);

	private final AuditRepository repository;

	private final Clock clock;

	private final Counter dropped;

	BatchedAuditTrail(AuditRepository repository, Clock clock, MeterRegistry registry) {
		super(FLUSH_EVERY);
		this.repository = repository;
		this.clock = clock;
		this.dropped = Counter.builder("audit.events.dropped")
			.description("Audit events dropped because the queue was full (database unreachable for long)")
			.register(registry);
		Gauge.builder("audit.events.pending", this.pending, Queue::size)
			.description("Audit events waiting to be written")
			.register(registry);
	}

	@Override
	public void read(ServerRequest request, String resource, String userId, long count) {
		record(request, AuditEvent.Action.READ, resource, userId, count);
	}

	@Override
	public void wrote(ServerRequest request, String resource, String userId) {
		record(request, AuditEvent.Action.WRITE, resource, userId, 1);
	}

	@Override
	public <T> Flux<T> reading(ServerRequest request, String resource, String userId, Flux<T> records) {
		return Flux.defer(() -> {
			AtomicLong sent = new AtomicLong();
			return records.doOnNext((record) -> sent.incrementAndGet())
				.doFinally((signal) -> read(request, resource, userId, sent.get()));
		});
	}

	private void record(ServerRequest request, AuditEvent.Action action, String resource, String userId, long count) {
		ApiPrincipal principal = Principals.of(request);
		AuditEvent event = new AuditEvent(UUID.randomUUID(), Timestamps.truncate(this.clock.instant()),
				principal.partnerId(), principal.keyId(), userId, action, resource, count,
				RequestIds.of(request.exchange()));
		if (!this.pending.offer(event)) {
			this.dropped.increment();
		}
	}

	/**
	 * Writes everything queued so far, batch by batch; a failed batch goes back to the
	 * queue.
	 */
	@Override
	protected Mono<Void> flush() {
		return Flux.defer(() -> Flux.fromIterable(drainBatches()))
			.concatMap((batch) -> this.repository.insert(batch).onErrorResume((failure) -> {
				batch.forEach(this.pending::offer);
				log.debug("Could not write " + batch.size() + " audit events yet: " + failure);
				return Mono.empty();
			}))
			.then();
	}

	private List<List<AuditEvent>> drainBatches() {
		List<List<AuditEvent>> batches = new ArrayList<>();
		List<AuditEvent> batch = new ArrayList<>();
		int available = this.pending.size();
		for (int i = 0; i < available; i++) {
			AuditEvent event = this.pending.poll();
			if (event == null) {
				break;
			}
			batch.add(event);
			if (batch.size() == BATCH) {
				batches.add(batch);
				batch = new ArrayList<>();
			}
		}
		if (!batch.isEmpty()) {
			batches.add(batch);
		}
		return batches;
	}

}
