package com.healthpartner.api.audit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.Principals;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.problem.RequestIds;
import com.healthpartner.api.system.DatabaseProperties;
import com.healthpartner.api.system.PeriodicFlush;

/**
 * Keeps read events in a bounded queue and writes them in one statement per batch every
 * half second, so that a read costs no extra database round trip (a write's event is
 * written by the write's own statement, see {@link AuditActor}). It stops after the web
 * server has drained (a lower phase than the server's), so the events of the last
 * in-flight requests are written too. While the database is down events wait in the
 * queue; past its bound they are dropped and counted
 * ({@code audit_events_dropped_total}), because memory must stay bounded. A write that
 * gets no answer within {@code APP_DATABASE_STATEMENT_DEADLINE} counts as failed, so that
 * a database that stops answering cannot hold up every later write; such a write may
 * still have committed, so writing its batch again skips the events already stored.
 */
@Component
class BatchedAuditTrail extends PeriodicFlush implements AuditTrail {

	private static final Log log = LogFactory.getLog(BatchedAuditTrail.class);

	static final int CAPACITY = 100_000;

	private static final int BATCH = 1_000;

	private static final Duration FLUSH_EVERY = Duration.ofMillis(500);

	private final Queue<AuditEvent> pending;

	/**
	 * Events taken from the queue by the write under way and not yet written or put back.
	 */
	private final AtomicInteger writing = new AtomicInteger();

	private final AuditRepository repository;

	private final Clock clock;

	private final Duration deadline;

	private final Counter dropped;

	@Autowired
	BatchedAuditTrail(AuditRepository repository, Clock clock, MeterRegistry registry, DatabaseProperties database) {
		this(repository, clock, registry, CAPACITY, database.statementDeadline());
	}

	BatchedAuditTrail(AuditRepository repository, Clock clock, MeterRegistry registry, int capacity,
			Duration deadline) {
		super(FLUSH_EVERY, deadline);
		this.pending = new ArrayBlockingQueue<>(capacity);
		this.repository = repository;
		this.clock = clock;
		this.deadline = deadline;
		this.dropped = Counter.builder("audit.events.dropped")
			.description("Audit events dropped because the queue was full (database unreachable for long)")
			.register(registry);
		Gauge.builder("audit.events.pending", this.pending, Queue::size)
			.description("Audit events waiting to be written")
			.register(registry);
	}

	@Override
	public void read(ServerRequest request, String resource, String userId, long count) {
		read(Principals.of(request), RequestIds.of(request.exchange()), resource, userId, count);
	}

	@Override
	public void read(ApiPrincipal principal, String requestId, String resource, String userId, long count) {
		Instant at = Timestamps.truncate(this.clock.instant());
		enqueue(new AuditEvent(Ids.ordered(at.toEpochMilli()), at, principal.partnerId(), principal.keyId(), userId,
				AuditEvent.Action.READ, resource, count, requestId));
	}

	@Override
	public <T> Flux<T> reading(ServerRequest request, String resource, String userId, Flux<T> records) {
		return Flux.defer(() -> {
			AtomicLong sent = new AtomicLong();
			return records.doOnNext((record) -> sent.incrementAndGet())
				.doFinally((signal) -> read(request, resource, userId, sent.get()));
		});
	}

	/** Queues an event to be written, or drops and counts it when the queue is full. */
	void enqueue(AuditEvent event) {
		if (!this.pending.offer(event)) {
			this.dropped.increment();
		}
	}

	/**
	 * Writes everything queued so far, batch by batch. A failed batch goes back to the
	 * queue (what no longer fits is dropped and counted), and so do the batches after it
	 * without being tried: the database just failed, the next flush tries again.
	 */
	@Override
	protected Mono<Void> flush() {
		return Flux.defer(() -> {
			AtomicBoolean failed = new AtomicBoolean();
			return Flux.fromIterable(drainBatches()).concatMap((batch) -> {
				if (failed.get()) {
					putBack(batch);
					return Mono.empty();
				}
				return this.repository.insert(batch)
					.timeout(this.deadline)
					.doOnSuccess((done) -> this.writing.addAndGet(-batch.size()))
					.onErrorResume((failure) -> {
						failed.set(true);
						putBack(batch);
						log.debug("Could not write " + batch.size() + " audit events yet: " + failure);
						failed(failure);
						return Mono.empty();
					});
			});
		}).then();
	}

	private void putBack(List<AuditEvent> batch) {
		batch.forEach(this::enqueue);
		this.writing.addAndGet(-batch.size());
	}

	/** Events that are neither written nor dropped: queued or in a write under way. */
	int unwritten() {
		return this.pending.size() + this.writing.get();
	}

	@Override
	protected void stopped() {
		int lost = unwritten();
		if (lost > 0) {
			log.warn(lost + " audit events could not be written before the stop and are lost"
					+ " (the database did not accept them)");
		}
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
			this.writing.incrementAndGet();
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
