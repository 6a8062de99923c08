package com.healthpartner.api.webhook;

import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import javax.crypto.spec.SecretKeySpec;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.util.concurrent.EventExecutor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

import com.healthpartner.api.access.Scope;
import com.healthpartner.api.changes.FeedCursors;
import com.healthpartner.api.credential.SecretCipher;
import com.healthpartner.api.json.Timestamps;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.system.LowPriority;
import com.healthpartner.api.system.PeriodicSweep;
import com.healthpartner.api.text.JsonText;
import com.healthpartner.api.web.CpuLoad;

/**
 * Sends messages: those the dispatcher reads from the feed ({@link #sendFeed}), and the
 * open deliveries (failed and due again, waiting behind one, handed over, redelivered,
 * tests, the outbox's events). For these each sweep leases runs (a user's open deliveries
 * to an endpoint, in order, up to 50) for as many runs as this instance has room for
 * ({@code APP_WEBHOOKS_CONCURRENCY} in flight, {@code APP_WEBHOOKS_BUSY_CONCURRENCY}
 * while partners' requests fill the cores, {@link CpuLoad}); a run is sent one message
 * after the other until one fails, its outcomes recorded together, and wakes the next
 * sweep. It sweeps when woken (a chunk of the feed or a run left deliveries open, a
 * redelivery or test was asked for) and every {@link #IDLE_SWEEP} (or
 * {@code APP_WEBHOOKS_POLL_INTERVAL} if longer) for what nothing here wakes it for:
 * retries coming due, deliveries left open by other instances or made by the statements
 * that end imports and erasures. An attempt resolves the URL and checks its addresses
 * again, connects to a checked one, sends the message signed with the endpoint's secret
 * (and the previous one during a rotation), follows no redirect, reads at most
 * {@code APP_WEBHOOKS_MAX_RESPONSE_BYTES} of the answer and gives up after
 * {@code APP_WEBHOOKS_TIMEOUT}. Only the headers written here are sent: nothing of a
 * request the service answers reaches an endpoint.
 * <p>
 * Sending runs on threads of its own at a lower CPU priority ({@link LowPriority},
 * {@code APP_WEBHOOKS_NICE}, the lowest by default): its event loops, and the threads
 * that resolve names and start a run. While the partners' requests keep the cores busy it
 * gets little of them, and all it needs when they do not.
 */
final class WebhookSender extends PeriodicSweep {

	private static final Log log = LogFactory.getLog(WebhookSender.class);

	/** The pause after the nth failed attempt (the last repeats), before jitter. */
	private static final List<Duration> BACK_OFF = List.of(Duration.ofSeconds(5), Duration.ofSeconds(30),
			Duration.ofMinutes(2), Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofHours(1),
			Duration.ofHours(2));

	private final WebhookRepository webhooks;

	private final WebhookUrls urls;

	private final SecretCipher cipher;

	private final Cursors cursors;

	private final List<RecordKind> kinds;

	private final WebhookEvents events;

	private final WebhookProperties properties;

	private final Clock clock;

	private final BooleanSupplier saturated;

	private final HttpClient client;

	private final ConnectionProvider connections;

	/** The event loops of the requests to endpoints, at the lower priority. */
	private final LoopResources loops;

	/**
	 * Where a run starts and a URL's host is resolved (the JDK's resolver blocks), at the
	 * lower priority.
	 */
	private final Scheduler background;

	/**
	 * The longest a due delivery waits for a sweep that nothing woke (a retry is due 5 s
	 * after a failure at the soonest): a claim is a transaction, and ten a second of them
	 * while idle were most of what an idle instance asked of the database.
	 */
	private static final Duration IDLE_SWEEP = Duration.ofSeconds(1);

	/** The most messages of one user sent one after the other on one claim. */
	private static final int RUN = 50;

	/**
	 * An attempt of a message read from the feed still under way after this is handed
	 * over (it and its user's later messages become open deliveries), so that the chunk
	 * it came in is recorded and the endpoint's next changes go.
	 */
	private static final Duration HAND_OVER_AFTER = Duration.ofSeconds(1);

	/** How often a chunk looks for attempts to hand over. */
	private static final Duration HAND_OVER_CHECK = Duration.ofMillis(250);

	private static final Duration KEYS_KEPT = Duration.ofMinutes(10);

	/**
	 * The longest the loops get to finish their tasks when the application stops (no
	 * quiet period: nothing is sent once the connections are closed).
	 */
	private static final Duration LOOPS_STOP_WITHIN = Duration.ofSeconds(5);

	private final AtomicInteger inFlight = new AtomicInteger();

	/**
	 * The endpoints' HMAC keys by their secret as stored: decrypting it (AES-GCM) for
	 * every message was most of what signing cost (async-profiler: 5 % of the service's
	 * CPU at 1,000 changes a second). A rotated secret is stored anew, so it is a new
	 * entry; an unused one leaves memory after {@link #KEYS_KEPT}.
	 */
	private final Cache<ByteBuffer, SecretKeySpec> keys = Caffeine.newBuilder()
		.maximumSize(10_000)
		.expireAfterAccess(KEYS_KEPT)
		.build();

	WebhookSender(WebhookRepository webhooks, WebhookUrls urls, SecretCipher cipher, Cursors cursors,
			List<RecordKind> kinds, WebhookEvents events, WebhookProperties properties, Clock clock,
			BooleanSupplier saturated) {
		super((properties.pollInterval().compareTo(IDLE_SWEEP) > 0) ? properties.pollInterval() : IDLE_SWEEP,
				"send webhooks");
		this.webhooks = webhooks;
		this.urls = urls;
		this.cipher = cipher;
		this.cursors = cursors;
		this.kinds = kinds;
		this.events = events;
		this.properties = properties;
		this.clock = clock;
		this.saturated = saturated;
		this.connections = ConnectionProvider.builder("webhooks")
			.maxConnections(properties.concurrency())
			.pendingAcquireMaxCount(-1)
			.pendingAcquireTimeout(properties.timeout())
			.maxIdleTime(Duration.ofSeconds(20))
			.build();
		int cores = Runtime.getRuntime().availableProcessors();
		this.loops = LoopResources.create("webhooks", cores, true);
		for (EventExecutor loop : this.loops.onClient(LoopResources.DEFAULT_NATIVE)) {
			loop.execute(() -> LowPriority.lowerCurrentThread(properties.nice()));
		}
		this.background = Schedulers.newBoundedElastic(10 * cores, 100_000,
				LowPriority.threads("webhooks", properties.nice()), 60);
		this.client = HttpClient.create(this.connections)
			.runOn(this.loops)
			.followRedirect(false)
			.compress(false)
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) properties.timeout().toMillis())
			.responseTimeout(properties.timeout());
	}

	@Override
	public Mono<?> sweep() {
		// while partners' requests fill the cores, fewer users' messages go at once
		int room = (this.saturated.getAsBoolean() ? this.properties.busyConcurrency() : this.properties.concurrency())
				- this.inFlight.get();
		if (room <= 0) {
			return Mono.empty();
		}
		Instant now = this.clock.instant();
		Instant lease = lease(now);
		return this.webhooks.claim(Math.min(room * 10, 2000), RUN, now, lease).collectList().doOnNext((claimed) -> {
			for (List<WebhookRepository.Claimed> run : runs(claimed)) {
				this.inFlight.incrementAndGet();
				send(run).subscribeOn(this.background).doFinally((signal) -> {
					this.inFlight.decrementAndGet();
					wake();
				}).subscribe(null, (failure) -> log.debug("Deliveries not recorded: " + failure));
			}
		});
	}

	/**
	 * The claimed deliveries in runs: each user's to an endpoint together, in their
	 * order; each without a user alone.
	 */
	private static Collection<List<WebhookRepository.Claimed>> runs(List<WebhookRepository.Claimed> claimed) {
		Map<Object, List<WebhookRepository.Claimed>> runs = new LinkedHashMap<>();
		for (WebhookRepository.Claimed delivery : claimed) {
			Object lane = (delivery.userId() != null) ? List.of(delivery.webhookId(), delivery.userId())
					: delivery.id();
			runs.computeIfAbsent(lane, (key) -> new ArrayList<>()).add(delivery);
		}
		for (List<WebhookRepository.Claimed> run : runs.values()) {
			run.sort(Comparator
				.comparing(WebhookRepository.Claimed::txid, Comparator.nullsFirst(Comparator.naturalOrder()))
				.thenComparing(WebhookRepository.Claimed::seq, Comparator.nullsFirst(Comparator.naturalOrder())));
		}
		return runs.values();
	}

	/**
	 * Sends a run one message after the other until one fails (or a timeout's time has
	 * passed); records the successes together, the failure, what was not sent because it
	 * may no longer be (given up without an attempt, the run going on past it), and gives
	 * back what was not sent.
	 */
	private Mono<Void> send(List<WebhookRepository.Claimed> run) {
		Instant until = this.clock.instant().plus(this.properties.timeout());
		return Flux.fromIterable(run)
			.takeWhile((delivery) -> this.clock.instant().isBefore(until))
			.concatMap(this::attempt)
			.takeUntil((outcome) -> outcome.failed())
			.collectList()
			.flatMap((outcomes) -> {
				List<WebhookRepository.Claimed> sent = new ArrayList<>();
				List<Instant> at = new ArrayList<>();
				List<Integer> codes = new ArrayList<>();
				Mono<Void> others = Mono.empty();
				for (Outcome outcome : outcomes) {
					if (outcome.succeeded()) {
						sent.add(outcome.delivery());
						at.add(outcome.at());
						codes.add(outcome.status());
					}
					else {
						others = others.then(recordOne(outcome));
					}
				}
				Mono<Void> succeeded = sent.isEmpty() ? Mono.empty() : this.webhooks.succeeded(sent, at, codes);
				return succeeded.then(others).then(this.webhooks.release(run.subList(outcomes.size(), run.size())));
			});
	}

	/**
	 * How long a lease of deliveries or of an endpoint lasts from {@code now}: no attempt
	 * starts after a timeout's time, an attempt takes at most the timeout, and recording
	 * the outcomes at most a statement's time limit (5 s). Compared as PostgreSQL stores
	 * it.
	 */
	Instant lease(Instant now) {
		return now.plus(this.properties.timeout().multipliedBy(2)).plusSeconds(10).truncatedTo(ChronoUnit.MICROS);
	}

	/**
	 * Sends the messages the dispatcher read from the feed under {@code lease}, then
	 * records them ({@link WebhookRepository#record}); how long recording took, in
	 * nanoseconds. Each user's messages to an endpoint go one after the other until one
	 * fails; users go side by side, {@code APP_WEBHOOKS_CONCURRENCY} at once
	 * ({@code APP_WEBHOOKS_BUSY_CONCURRENCY} while partners' requests fill the cores). A
	 * user with open deliveries to the endpoint sends nothing: its messages wait behind
	 * them, as deliveries. An attempt still under way after {@link #HAND_OVER_AFTER} is
	 * handed over: it is recorded open and leased, its outcome recorded when it comes,
	 * and its user's later messages wait as deliveries, so a slow user does not hold up
	 * the endpoint's next messages. Failed attempts are recorded as a claimed delivery's
	 * (retry, {@code 410}, disabling) once their deliveries are written.
	 */
	Mono<Long> sendFeed(List<WebhookRepository.FeedMessage> messages, Instant lease) {
		Instant until = this.clock.instant().plus(this.properties.timeout());
		Sinks.Empty<Void> recorded = Sinks.empty();
		List<Lane> lanes = lanes(messages, recorded);
		int concurrency = this.saturated.getAsBoolean() ? this.properties.busyConcurrency()
				: this.properties.concurrency();
		// one timer a chunk: a task scheduled and cancelled per message was a tenth
		// of the sender's CPU (async-profiler)
		Disposable handOvers = Flux.interval(HAND_OVER_CHECK, this.background).subscribe((tick) -> {
			long before = System.nanoTime() - HAND_OVER_AFTER.toNanos();
			for (Lane lane : lanes) {
				lane.handOverIfStarted(before);
			}
		});
		return Flux.fromIterable(lanes)
			.filter((lane) -> !lane.blocked)
			.flatMap((lane) -> lane.run(until), concurrency)
			.doFinally((signal) -> handOvers.dispose())
			.then(Mono.defer(() -> {
				List<WebhookRepository.Sent> sent = new ArrayList<>(messages.size());
				List<Outcome> failed = new ArrayList<>();
				boolean open = false;
				for (Lane lane : lanes) {
					open |= lane.sent(sent, failed);
				}
				boolean wake = open;
				long started = System.nanoTime();
				return this.webhooks.record(sent, lease, this.clock.instant())
					.then(Mono.fromSupplier(() -> System.nanoTime() - started))
					.flatMap((took) -> Flux.fromIterable(failed).concatMap(this::recordOne).then(Mono.just(took)))
					.doFinally((signal) -> {
						recorded.tryEmitEmpty();
						if (wake) {
							wake();
						}
					});
			}));
	}

	/** Each user's messages to an endpoint, in the order read (the feed's). */
	private List<Lane> lanes(List<WebhookRepository.FeedMessage> messages, Sinks.Empty<Void> recorded) {
		Map<List<Object>, List<WebhookRepository.FeedMessage>> byUser = new LinkedHashMap<>();
		for (WebhookRepository.FeedMessage message : messages) {
			byUser
				.computeIfAbsent(List.of(message.delivery().webhookId(), message.delivery().userId()),
						(key) -> new ArrayList<>())
				.add(message);
		}
		List<Lane> lanes = new ArrayList<>(byUser.size());
		for (List<WebhookRepository.FeedMessage> lane : byUser.values()) {
			lanes.add(new Lane(lane, recorded));
		}
		return lanes;
	}

	/** An outcome of a delivery written open and leased: recorded as a claimed one's. */
	private Mono<Void> recordOne(Outcome outcome) {
		if (outcome.succeeded()) {
			return this.webhooks.succeeded(List.of(outcome.delivery()), List.of(outcome.at()),
					List.of(outcome.status()));
		}
		return outcome.failed() ? failed(outcome) : this.webhooks.notSent(outcome.delivery(), outcome.error());
	}

	/**
	 * One user's messages to one endpoint in a chunk read from the feed: sent one after
	 * the other until one fails, no attempt started after the chunk's time; or handed
	 * over while an attempt is under way. Its state is guarded by its own lock: an
	 * attempt's outcome and the hand-over timer race for it.
	 */
	private final class Lane {

		private final List<WebhookRepository.FeedMessage> messages;

		private final boolean blocked;

		private final Outcome[] outcomes;

		private final Sinks.Empty<Void> released = Sinks.empty();

		private final Sinks.Empty<Void> recorded;

		/**
		 * The next message to attempt, the one under way (-1 if none) and when its
		 * attempt started ({@link System#nanoTime}).
		 */
		private int next;

		private int underWay = -1;

		private long underWaySince;

		/** No more attempts: finished, stopped at a failure, or handed over. */
		private boolean over;

		private boolean handedOver;

		Lane(List<WebhookRepository.FeedMessage> messages, Sinks.Empty<Void> recorded) {
			this.messages = messages;
			this.blocked = messages.get(0).blocked();
			this.outcomes = new Outcome[messages.size()];
			this.recorded = recorded;
		}

		/**
		 * Sends until done or handed over; starts on the sender's threads, and goes on on
		 * the thread each outcome arrives on.
		 */
		Mono<Void> run(Instant until) {
			return Mono.defer(() -> {
				background.schedule(() -> step(until));
				return this.released.asMono();
			});
		}

		private void step(Instant until) {
			int index;
			synchronized (this) {
				if (this.over || this.next == this.messages.size() || !clock.instant().isBefore(until)) {
					this.over = true;
					index = -1;
				}
				else {
					index = this.next;
					this.underWay = index;
					this.underWaySince = System.nanoTime();
				}
			}
			if (index < 0) {
				this.released.tryEmitEmpty();
				return;
			}
			WebhookRepository.Claimed delivery = this.messages.get(index).delivery();
			Mono.defer(() -> attempt(delivery)).subscribe((outcome) -> completed(index, outcome, until), (failure) -> {
				// not an attempt's failure (those are outcomes): left to the lease
				log.debug("Webhook attempt not made: " + failure);
				handOver(index);
			});
		}

		private void completed(int index, Outcome outcome, Instant until) {
			boolean late;
			synchronized (this) {
				late = this.handedOver;
				if (!late) {
					this.outcomes[index] = outcome;
					this.underWay = -1;
					this.next = index + 1;
					this.over = outcome.failed();
				}
			}
			if (late) {
				// recorded open and leased with the chunk; the outcome after it
				this.recorded.asMono()
					.then(Mono.defer(() -> recordOne(outcome)))
					.subscribe(null, (failure) -> log.debug("Delivery not recorded: " + failure),
							WebhookSender.this::wake);
				return;
			}
			if (outcome.attempted()) {
				step(until);
			}
			else {
				// no attempt, no thread change: a long run of these must not nest
				background.schedule(() -> step(until));
			}
		}

		/** Hands over the attempt under way if it started before {@code before}. */
		void handOverIfStarted(long before) {
			int index;
			synchronized (this) {
				if (this.underWay < 0 || this.underWaySince - before > 0) {
					return;
				}
				index = this.underWay;
			}
			handOver(index);
		}

		private void handOver(int index) {
			synchronized (this) {
				if (this.handedOver || this.underWay != index) {
					return;
				}
				this.handedOver = true;
				this.over = true;
			}
			this.released.tryEmitEmpty();
		}

		/**
		 * Adds what became of each message to {@code sent}, the attempts to record as a
		 * claimed delivery's to {@code failed}; whether any is left open.
		 */
		synchronized boolean sent(List<WebhookRepository.Sent> sent, List<Outcome> failed) {
			boolean open = false;
			for (int i = 0; i < this.messages.size(); i++) {
				WebhookRepository.FeedMessage message = this.messages.get(i);
				Outcome outcome = this.outcomes[i];
				if (outcome != null && outcome.succeeded()) {
					sent.add(new WebhookRepository.Sent(message, outcome.at(), (long) outcome.status(),
							WebhookRepository.Sent.State.SUCCEEDED));
					continue;
				}
				open = true;
				if (outcome != null) {
					failed.add(outcome);
				}
				boolean leased = outcome != null || (i == this.underWay && this.handedOver);
				sent.add(new WebhookRepository.Sent(message, null, null,
						leased ? WebhookRepository.Sent.State.LEASED : WebhookRepository.Sent.State.WAITING));
			}
			return open;
		}

	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	/**
	 * Stops sending, then closes the connections to endpoints and the loops they ran on,
	 * calling {@code callback} when they are closed: the application finishes stopping
	 * only after them, so nothing of theirs is still running (and logging) once the
	 * logging system has shut down.
	 */
	@Override
	public void stop(Runnable callback) {
		super.stop();
		this.background.dispose();
		this.connections.disposeLater()
			.then(this.loops.disposeLater(Duration.ZERO, LOOPS_STOP_WITHIN))
			.doFinally((signal) -> callback.run())
			.subscribe();
	}

	/** The loops of the requests to endpoints (for tests). */
	LoopResources loops() {
		return this.loops;
	}

	private Mono<Outcome> attempt(WebhookRepository.Claimed delivery) {
		Instant at = this.clock.instant();
		if (delivery.data() == null) {
			// its change was deleted by the feed's retention: nothing left to send
			return Mono.just(Outcome.notSent(delivery, at, "Not sent: the change is no longer kept"));
		}
		if (!this.events.permits(delivery.eventType(), Scope.parse(delivery.scopes()))) {
			// the scope was taken from the partner after the message was made
			Scope needed = this.events.scopeNeeded(delivery.eventType());
			return Mono.just(Outcome.notSent(delivery, at, "Not sent: the partner no longer holds "
					+ ((needed != null) ? "the scope " + needed.value() : "a read scope")));
		}
		String body = body(delivery);
		long timestamp = at.getEpochSecond();
		String signature = signature(delivery, at, timestamp, body);
		return Mono.defer(() -> this.urls.resolve(this.urls.parse(delivery.url()), this.background))
			.flatMap((target) -> send(target, delivery, body, timestamp, signature))
			.timeout(this.properties.timeout())
			.map((status) -> new Outcome(delivery, at, status, null, true))
			.onErrorResume((failure) -> Mono.just(new Outcome(delivery, at, null, describe(failure), true)));
	}

	private Mono<Integer> send(WebhookUrls.Target target, WebhookRepository.Claimed delivery, String body,
			long timestamp, String signature) {
		long limit = this.properties.maxResponseBytes().toBytes();
		HttpClient client = this.client.remoteAddress(target::address);
		if (target.secure()) {
			client = client.secure();
		}
		return client
			.headers((headers) -> headers.set(HttpHeaderNames.HOST, target.hostHeader())
				.set(HttpHeaderNames.CONTENT_TYPE, "application/json")
				.set(HttpHeaderNames.USER_AGENT, "HealthPartnerAPI-Webhooks/1")
				.set("webhook-id", delivery.messageId())
				.set("webhook-timestamp", Long.toString(timestamp))
				.set("webhook-signature", signature))
			.post()
			.uri(target.pathAndQuery())
			.send(ByteBufFlux.fromString(Mono.just(body), StandardCharsets.UTF_8,
					io.netty.buffer.ByteBufAllocator.DEFAULT))
			.response((response, content) -> {
				AtomicLong read = new AtomicLong();
				// what the endpoint answers is read up to the limit, then the connection
				// is let go
				return content.takeUntil((chunk) -> read.addAndGet(chunk.readableBytes()) >= limit)
					.then(Mono.just(response.status().code()));
			})
			.next();
	}

	private Mono<Void> failed(Outcome outcome) {
		WebhookRepository.Claimed delivery = outcome.delivery();
		Instant at = outcome.at();
		Integer status = outcome.status();
		if (status != null && status == 410) {
			return this.webhooks.gone(delivery, at);
		}
		String reason = (outcome.error() != null) ? outcome.error() : (status >= 300 && status < 400)
				? "answered " + status + "; redirects are not followed" : "answered " + status;
		Instant first = (delivery.firstAttemptAt() != null) ? delivery.firstAttemptAt() : at;
		Instant retryAt = at.plus(backOff(delivery.attempts()));
		if (retryAt.isAfter(first.plus(this.properties.retryFor()))) {
			retryAt = null;
		}
		return this.webhooks.failed(delivery, at, status, reason, retryAt, at.minus(this.properties.retryFor()));
	}

	/**
	 * What an attempt got: a status, or an error when no answer came; or, when no attempt
	 * was made ({@code attempted} false), why the message may not be sent.
	 */
	private record Outcome(WebhookRepository.Claimed delivery, Instant at, Integer status, String error,
			boolean attempted) {

		static Outcome notSent(WebhookRepository.Claimed delivery, Instant at, String why) {
			return new Outcome(delivery, at, null, why, false);
		}

		boolean succeeded() {
			return this.status != null && this.status >= 200 && this.status < 300;
		}

		/** An attempt that did not succeed: the user's later messages wait behind it. */
		boolean failed() {
			return this.attempted && !succeeded();
		}

	}

	/**
	 * The pause after the ({@code attemptsBefore} + 1)th attempt failed: ±20 % jitter.
	 */
	static Duration backOff(int attemptsBefore) {
		Duration base = BACK_OFF.get(Math.min(attemptsBefore, BACK_OFF.size() - 1));
		double jitter = 0.8 + 0.4 * ThreadLocalRandom.current().nextDouble();
		return Duration.ofMillis((long) (base.toMillis() * jitter));
	}

	private static String describe(Throwable failure) {
		if (failure instanceof WebhookUrls.Refused refused) {
			return "Not sent: the URL " + refused.getMessage();
		}
		if (failure instanceof TimeoutException || failure instanceof ReadTimeoutException
				|| failure.getCause() instanceof ReadTimeoutException) {
			return "No answer in time";
		}
		if (failure instanceof ConnectException || failure.getCause() instanceof ConnectException) {
			return "Could not connect: " + failure.getMessage();
		}
		return "Failed: " + failure.getClass().getSimpleName()
				+ ((failure.getMessage() != null) ? ": " + failure.getMessage() : "");
	}

	/**
	 * The message: its type, when its change was made, the data, and for a change of the
	 * feed a cursor right after it (null for other events), the same on every attempt.
	 */
	private String body(WebhookRepository.Claimed delivery) {
		StringBuilder out = new StringBuilder(delivery.data().length() + 160);
		out.append("{\"type\":\"").append(delivery.eventType()).append("\",\"timestamp\":\"");
		Timestamps.append(out, delivery.occurredAt()).append("\",\"data\":").append(delivery.data());
		out.append(",\"cursor\":");
		if (delivery.seq() != null && delivery.seq() > 0) {
			String scope = FeedCursors.scope(delivery.partnerId(), Scope.parse(delivery.scopes()), this.kinds);
			JsonText.quote(out, this.cursors.encode(scope, delivery.txid(), delivery.seq()));
		}
		else {
			out.append("null");
		}
		return out.append('}').toString();
	}

	private String signature(WebhookRepository.Claimed delivery, Instant at, long timestamp, String body) {
		String signature = WebhookSecrets.sign(key(delivery.secret()), delivery.messageId(), timestamp, body);
		if (delivery.previousSecret() != null && delivery.previousUntil() != null
				&& delivery.previousUntil().isAfter(at)) {
			signature = signature + " "
					+ WebhookSecrets.sign(key(delivery.previousSecret()), delivery.messageId(), timestamp, body);
		}
		return signature;
	}

	/** The HMAC key of an endpoint's secret as stored (encrypted). */
	private SecretKeySpec key(byte[] stored) {
		return this.keys.get(ByteBuffer.wrap(stored), (encrypted) -> WebhookSecrets.key(this.cipher.decrypt(stored)));
	}

}
