package com.healthpartner.api.imports;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.JsonNode;

import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.idempotency.RecordOutcome;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldError;
import com.healthpartner.api.records.RecordItems;
import com.healthpartner.api.records.RecordRepository;
import com.healthpartner.api.system.PeriodicSweep;
import com.healthpartner.api.web.RequestLoad;

/**
 * Applies stored imports, whichever instance received them: it claims the oldest import
 * no instance holds and applies it in chunks of line ranges, in file order, a few at
 * once, each chunk one transaction with its records, changes, audit events, refused
 * lines, the import's counts and a row that marks the chunk applied, so that a crash in
 * the middle resumes with the chunks not marked and applies no line twice. A chunk
 * commits only while this instance still holds the claim; a claim not renewed within its
 * lease passes to another instance. While the service is answering requests, the worker
 * pauses between chunks so that it works at most {@code APP_IMPORT_BUSY_SHARE} of the
 * time, and in proportion when it answers them some of the time ({@link RequestLoad}):
 * partners' requests come first.
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

	private final RequestLoad load;

	/** How long the last chunk took ({@link System#nanoTime()}). */
	private volatile long lastChunkNanos;

	ImportWorker(ImportRepository imports, List<RecordRepository> repositories, JsonBodies bodies,
			TransactionalOperator transaction, ImportProperties properties, Clock clock, RequestLoad load) {
		super(properties.pollInterval(), "apply imports");
		this.imports = imports;
		this.items = repositories.stream()
			.collect(Collectors.toMap((records) -> records.kind().resource(), RecordItems::new));
		this.bodies = bodies;
		this.transaction = transaction;
		this.properties = properties;
		this.clock = clock;
		this.load = load;
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

	/**
	 * Applies the chunks of {@code claimed} not applied yet, in file order, up to
	 * {@code APP_IMPORT_PARALLEL_CHUNKS} at once; then completes it. A chunk that holds a
	 * client record id of an earlier chunk still under way waits for it ({@link Chunks}),
	 * so versions of one record apply in file order.
	 */
	private Mono<Void> apply(ImportRepository.Claimed claimed) {
		Long[] starts = claimed.chunkStarts();
		long[] failedAt = { 0, 0 };
		return this.imports.applied(claimed.id()).flatMap((applied) -> {
			Set<Long> done = new HashSet<>(Arrays.asList(applied));
			Chunks chunks = new Chunks();
			return Flux.range(0, starts.length)
				.filter((i) -> !done.contains(starts[i]))
				.concatMap(
						(i) -> read(claimed, starts[i], (i + 1 < starts.length) ? starts[i + 1] - 1 : Long.MAX_VALUE))
				.map(chunks::start)
				.flatMap((chunk) -> chunk.after()
					.then(Mono.defer(() -> yieldToRequests(apply(claimed, chunk.read()))))
					.doOnError((failure) -> {
						failedAt[0] = chunk.read().first();
						failedAt[1] = chunk.read().lines().isEmpty() ? failedAt[0]
								: chunk.read().lines().get(chunk.read().lines().size() - 1).line();
					})
					.doFinally((signal) -> chunks.end(chunk)), this.properties.parallelChunks())
				.then(Mono.defer(() -> this.imports.complete(claimed.id(), this.me, this.clock.instant())))
				.then();
		}).onErrorResume(ClaimLost.class, (lost) -> {
			log.warn("Import " + claimed.id() + " is applied by another instance now");
			return Mono.empty();
		}).onErrorResume((failure) -> {
			String lines = "lines " + failedAt[0] + " to " + failedAt[1];
			log.warn("Import " + claimed.id() + " failed at " + lines, failure);
			Instant now = this.clock.instant();
			return this.imports
				.failed(claimed.id(), this.me,
						"Processing stopped: " + lines
								+ " could not be stored; the lines counted in processed were applied",
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
	 * {@code chunk}, after a pause as long as the service has been answering requests
	 * lately ({@link RequestLoad}, {@code b} from 0 to 1): the last chunk took {@code t},
	 * and each of the {@code parallel} chunks at a time works {@code share / parallel} of
	 * the time while requests are always under way ({@code APP_IMPORT_BUSY_SHARE} of it
	 * together), all of it while none is, and in between in proportion:
	 * {@code d = b * share / parallel + (1 - b)}, so the pause is
	 * {@code t * (1 / d - 1)}.
	 */
	private Mono<Void> yieldToRequests(Mono<Void> chunk) {
		Mono<Void> timed = Mono.defer(() -> {
			long started = System.nanoTime();
			return chunk.doOnSuccess((ignored) -> this.lastChunkNanos = System.nanoTime() - started);
		});
		long pause = pause(this.lastChunkNanos, this.load.busy(), this.properties.busyShare(),
				this.properties.parallelChunks());
		return (pause > 0) ? Mono.delay(Duration.ofNanos(pause)).then(timed) : timed;
	}

	/**
	 * The pause before a chunk, in nanoseconds: {@code last} the time the last one took,
	 * {@code busy} the service's recent load (0 to 1) ({@link #yieldToRequests}).
	 */
	static long pause(long last, double busy, double share, int parallel) {
		if (share >= 1) {
			return 0;
		}
		double duty = busy * share / parallel + (1 - busy);
		return (long) (last * (1 / duty - 1));
	}

	/** The lines of a chunk, read from the database and parsed (not yet applied). */
	private Mono<Read> read(ImportRepository.Claimed claimed, long first, long last) {
		Instant now = this.clock.instant();
		RecordItems kind = this.items.get(claimed.resource());
		return this.imports.lines(claimed.id(), first, last).collectList().map((lines) -> {
			List<RecordItems.Item> read = new ArrayList<>(lines.size());
			Set<String> clientIds = new HashSet<>();
			for (int i = 0; i < lines.size(); i++) {
				RecordItems.Item item = read(kind, i, lines.get(i), now);
				read.add(item);
				if (item.row() != null && item.row().clientRecordId() != null) {
					clientIds.add(item.row().clientRecordId());
				}
			}
			return new Read(first, lines, read, clientIds, now);
		});
	}

	/** One chunk in one transaction: its records, refused lines and progress. */
	private Mono<Void> apply(ImportRepository.Claimed claimed, Read chunk) {
		RecordItems kind = this.items.get(claimed.resource());
		AuditActor actor = new AuditActor(claimed.partnerId(), claimed.keyId(), claimed.requestId(), chunk.at());
		return kind.apply(claimed.partnerId(), chunk.items(), actor)
			.flatMap((results) -> record(claimed, chunk, results))
			.as(this.transaction::transactional)
			.then();
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
	private Mono<Long> record(ImportRepository.Claimed claimed, Read chunk, RecordItems.Result[] results) {
		List<ImportRepository.Line> lines = chunk.lines();
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
		ImportRepository.Chunk done = new ImportRepository.Chunk(chunk.first(), lines.size(), created, updated,
				unchanged, refusedLines.size());
		return this.imports
			.refused(claimed.id(), refusedLines.stream().mapToLong(Long::longValue).toArray(),
					refusedItems.toArray(String[]::new))
			.then(this.imports.progress(claimed.id(), this.me, done,
					this.clock.instant().plus(this.properties.claimLease())))
			.flatMap((held) -> (held == 1) ? Mono.just(held) : Mono.error(new ClaimLost()));
	}

	/** A chunk read: its first line (of its range), its lines, their items. */
	private record Read(long first, List<ImportRepository.Line> lines, List<RecordItems.Item> items,
			Set<String> clientIds, Instant at) {
	}

	/**
	 * The chunks of one import under way: a chunk starts after those earlier ones still
	 * under way that share a client record id with it.
	 */
	private static final class Chunks {

		private final List<Started> underWay = new ArrayList<>();

		synchronized Started start(Read read) {
			List<Mono<Void>> earlier = new ArrayList<>();
			for (Started other : this.underWay) {
				if (!Collections.disjoint(other.read().clientIds(), read.clientIds())) {
					earlier.add(other.ended().asMono());
				}
			}
			Started started = new Started(read, Sinks.empty(), Mono.when(earlier));
			this.underWay.add(started);
			return started;
		}

		synchronized void end(Started chunk) {
			this.underWay.remove(chunk);
			chunk.ended().tryEmitEmpty();
		}

	}

	/** A chunk under way, and what it waits for. */
	private record Started(Read read, Sinks.Empty<Void> ended, Mono<Void> after) {
	}

	/** Another instance holds the import now (this one's lease ran out). */
	private static final class ClaimLost extends IllegalStateException {

		ClaimLost() {
			super("another instance holds the import now");
		}

	}

}
