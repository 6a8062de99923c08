package com.healthpartner.api.imports;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.idempotency.RecordOutcome;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldError;
import com.healthpartner.api.records.RecordItems;
import com.healthpartner.api.records.RecordRepository;
import com.healthpartner.api.system.PeriodicSweep;
import com.healthpartner.api.web.InFlightRequests;

/**
 * Applies stored imports, whichever instance received them: it claims the oldest import
 * no instance holds, applies its lines chunk by chunk in file order, each chunk one
 * transaction with its records, changes, audit events, refused lines and the import's
 * progress (its last line), so that a crash in the middle resumes after the last
 * committed chunk and applies no line twice. A chunk commits only while this instance
 * still holds the claim; a claim not renewed within its lease passes to another instance.
 * While the service is answering requests, the worker pauses between chunks so that it
 * works at most {@code APP_IMPORT_BUSY_SHARE} of the time: partners' requests come first.
 */
final class ImportWorker extends PeriodicSweep {

	private static final Log log = LogFactory.getLog(ImportWorker.class);

	private final UUID me = UUID.randomUUID();

	private final ImportRepository imports;

	private final Map<String, RecordItems> items;

	private final JsonBodies bodies;

	private final TransactionalOperator transaction;

	private final ImportProperties properties;

	private final Clock clock;

	private final InFlightRequests requests;

	/** When the chunk under way began ({@link System#nanoTime()}). */
	private volatile long chunkStarted;

	ImportWorker(ImportRepository imports, List<RecordRepository> repositories, JsonMapper mapper, JsonBodies bodies,
			TransactionalOperator transaction, ImportProperties properties, Clock clock, InFlightRequests requests) {
		super(properties.pollInterval(), "apply imports");
		this.imports = imports;
		this.items = repositories.stream()
			.collect(Collectors.toMap((records) -> records.kind().resource(),
					(records) -> new RecordItems(records, mapper)));
		this.bodies = bodies;
		this.transaction = transaction;
		this.properties = properties;
		this.clock = clock;
		this.requests = requests;
	}

	/**
	 * Lets go of uploads whose instance died, then claims and applies imports until none
	 * is left to claim.
	 */
	@Override
	public Mono<Void> sweep() {
		return Mono.defer(() -> this.imports.abandoned(this.clock.instant().minus(this.properties.claimLease())))
			.doOnNext((dropped) -> {
				if (dropped > 0) {
					log.warn("Dropped " + dropped + " import(s) whose upload stopped with its instance");
				}
			})
			.then(claimAndApply().expand((found) -> found ? claimAndApply() : Mono.empty()).then());
	}

	/** Whether an import was claimed (and applied as far as it could be). */
	private Mono<Boolean> claimAndApply() {
		return Mono.defer(this::claim).flatMap((claimed) -> apply(claimed).thenReturn(true)).defaultIfEmpty(false);
	}

	private Mono<ImportRepository.Claimed> claim() {
		Instant now = this.clock.instant();
		return this.imports.claim(this.me, now, now.plus(this.properties.claimLease()));
	}

	private Mono<Void> apply(ImportRepository.Claimed claimed) {
		long[] lastLine = { claimed.lastLine() };
		return Mono.defer(() -> {
			this.chunkStarted = System.nanoTime();
			return chunk(claimed, lastLine);
		})
			.expand((more) -> more ? Mono.defer(() -> yieldToRequests(chunk(claimed, lastLine))) : Mono.empty())
			.then()
			.onErrorResume(ClaimLost.class, (lost) -> {
				log.warn("Import " + claimed.id() + " is applied by another instance now");
				return Mono.empty();
			})
			.onErrorResume((failure) -> {
				log.warn("Import " + claimed.id() + " failed at the chunk after line " + lastLine[0], failure);
				Instant now = this.clock.instant();
				return this.imports
					.failed(claimed.id(), this.me,
							"Processing stopped after line " + lastLine[0] + ": the lines after it could not be stored",
							this.properties.maxFailures(), now, now.plus(this.properties.claimLease()))
					.doOnNext((ended) -> {
						if (ended) {
							log.error("Import " + claimed.id() + " ended failed after " + this.properties.maxFailures()
									+ " failed attempts");
						}
					})
					.onErrorResume((ignored) -> Mono.empty())
					.then();
			});
	}

	/**
	 * {@code chunk}, after a pause if the service is answering requests: the chunk before
	 * took {@code t}, so the pause is {@code t * (1 / share - 1)}, which holds the worker
	 * to {@code APP_IMPORT_BUSY_SHARE} of the time while partners are served (and to all
	 * of it when none is).
	 */
	private Mono<Boolean> yieldToRequests(Mono<Boolean> chunk) {
		long took = System.nanoTime() - this.chunkStarted;
		double share = this.properties.busyShare();
		Mono<Boolean> timed = chunk.doOnSubscribe((subscription) -> this.chunkStarted = System.nanoTime());
		if (share >= 1 || this.requests.handling() == 0) {
			return timed;
		}
		return Mono.delay(Duration.ofNanos((long) (took * (1 / share - 1)))).then(timed);
	}

	/** One chunk in one transaction; whether more lines may follow. */
	private Mono<Boolean> chunk(ImportRepository.Claimed claimed, long[] lastLine) {
		Instant now = this.clock.instant();
		RecordItems kind = this.items.get(claimed.resource());
		AuditActor actor = new AuditActor(claimed.partnerId(), claimed.keyId(), claimed.requestId(), now);
		return this.imports.lines(claimed.id(), lastLine[0], this.properties.chunkLines())
			.collectList()
			.flatMap((lines) -> {
				if (lines.isEmpty()) {
					return this.imports.complete(claimed.id(), this.me, now).thenReturn(false);
				}
				List<RecordItems.Item> read = new ArrayList<>(lines.size());
				for (int i = 0; i < lines.size(); i++) {
					ImportRepository.Line line = lines.get(i);
					read.add(read(kind, i, line, now));
				}
				return kind.apply(claimed.partnerId(), read, actor)
					.flatMap((results) -> record(claimed, lines, results, now))
					.doOnNext((ignored) -> lastLine[0] = lines.get(lines.size() - 1).line())
					.thenReturn(true);
			})
			.as(this.transaction::transactional);
	}

	private RecordItems.Item read(RecordItems kind, int position, ImportRepository.Line line, Instant now) {
		try {
			JsonNode node = this.bodies.parseValue(line.body().getBytes(StandardCharsets.UTF_8));
			return kind.read(position, node, now);
		}
		catch (ApiException refused) {
			List<FieldError> errors = refused.errors().isEmpty() ? List.of(new FieldError("body", refused.getMessage()))
					: refused.errors();
			return RecordItems.refused(position, refused.type(), errors);
		}
	}

	/**
	 * The chunk's refused lines and the import's progress, or a failure if the claim was
	 * lost.
	 */
	private Mono<Long> record(ImportRepository.Claimed claimed, List<ImportRepository.Line> lines,
			RecordItems.Result[] results, Instant now) {
		long created = 0;
		long updated = 0;
		long unchanged = 0;
		List<Long> refusedLines = new ArrayList<>();
		List<String> refusedItems = new ArrayList<>();
		for (int i = 0; i < results.length; i++) {
			RecordOutcome outcome = results[i].outcome();
			if (outcome == null) {
				StringBuilder item = new StringBuilder("{\"line\":").append(lines.get(i).line()).append(',');
				results[i].writeRefusal(item);
				refusedLines.add(lines.get(i).line());
				refusedItems.add(item.append('}').toString());
			}
			else {
				created += (outcome == RecordOutcome.CREATED) ? 1 : 0;
				updated += (outcome == RecordOutcome.UPDATED) ? 1 : 0;
				unchanged += (outcome == RecordOutcome.UNCHANGED) ? 1 : 0;
			}
		}
		ImportRepository.Chunk chunk = new ImportRepository.Chunk(lines.size(), lines.get(lines.size() - 1).line(),
				created, updated, unchanged, refusedLines.size());
		return this.imports
			.refused(claimed.id(), refusedLines.stream().mapToLong(Long::longValue).toArray(),
					refusedItems.toArray(String[]::new))
			.then(this.imports.progress(claimed.id(), this.me, chunk, now.plus(this.properties.claimLease())))
			.flatMap((held) -> (held == 1) ? Mono.just(held) : Mono.error(new ClaimLost()));
	}

	/** Another instance holds the import now (this one's lease ran out). */
	private static final class ClaimLost extends IllegalStateException {

		ClaimLost() {
			super("another instance holds the import now");
		}

	}

}
