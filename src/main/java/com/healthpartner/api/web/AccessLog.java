package com.healthpartner.api.web;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import com.healthpartner.api.text.Utf8Bytes;

/**
 * One access log line per request: its id, method, route pattern, path (never the query:
 * it may hold a user id), status, partner and duration; never a header value or a body.
 * The logger {@code com.healthpartner.api.access} switches it on and off. With structured
 * logging ({@code prod}) a line is Spring Boot's ECS JSON, built here and written by a
 * thread of its own every 20 ms from a bounded queue (a full queue drops and counts:
 * {@code access_log_dropped_total}), since encoding through the logging framework cost
 * more than answering a refused request (docs/operations.md, Logs).
 */
@Component
public class AccessLog implements SmartLifecycle {

	static final String LOGGER = "com.healthpartner.api.access";

	private static final Logger log = LoggerFactory.getLogger(LOGGER);

	private static final int CAPACITY = 65_536;

	private static final int BATCH = 512;

	/** How long the writer waits before it looks for lines again. */
	private static final long PAUSE_NANOS = 20_000_000;

	private final boolean structured;

	private final EcsLines lines;

	private final BlockingQueue<Entry> queue = new ArrayBlockingQueue<>(CAPACITY);

	private final Counter dropped;

	private final OutputStream out;

	private volatile Thread writer;

	private volatile boolean running;

	@Autowired
	AccessLog(Environment environment, MeterRegistry meters) {
		this(environment, meters, new FileOutputStream(FileDescriptor.out));
	}

	AccessLog(Environment environment, MeterRegistry meters, OutputStream out) {
		this.structured = "ecs".equalsIgnoreCase(environment.getProperty("logging.structured.format.console"));
		this.lines = new EcsLines(environment);
		this.out = out;
		this.dropped = Counter.builder("access.log.dropped")
			.description("Access log lines dropped because standard output did not keep up")
			.register(meters);
	}

	/** Records the line of a request that has ended. */
	public void record(Entry entry) {
		if (!log.isInfoEnabled()) {
			return;
		}
		if (!this.structured || !this.running) {
			log.atInfo()
				.addKeyValue("request_id", entry.requestId())
				.addKeyValue("method", entry.method())
				.addKeyValue("route", entry.route())
				.addKeyValue("path", entry.path())
				.addKeyValue("status", entry.status())
				.addKeyValue("partner_id", entry.partnerId())
				.addKeyValue("duration_ms", entry.durationMillis())
				.log(entry.message());
			return;
		}
		if (!this.queue.offer(entry)) {
			this.dropped.increment();
		}
	}

	private void writeLoop() {
		List<Entry> batch = new ArrayList<>(BATCH);
		Utf8Bytes text = new Utf8Bytes(64 * 1024);
		while (this.running || !this.queue.isEmpty()) {
			if (this.queue.isEmpty()) {
				// a pause, not a wait on the queue: a request that queues a line then
				// wakes
				// no thread, and a busy minute costs a few dozen writes, not one per line
				LockSupport.parkNanos(PAUSE_NANOS);
				continue;
			}
			try {
				this.queue.drainTo(batch, BATCH);
				for (Entry entry : batch) {
					this.lines.append(text, entry);
				}
				this.out.write(text.array(), 0, text.length());
				this.out.flush();
			}
			catch (IOException | RuntimeException ex) {
				this.dropped.increment(batch.size());
			}
			finally {
				batch.clear();
				text.clear();
			}
		}
	}

	@Override
	public void start() {
		this.running = true;
		Thread thread = new Thread(this::writeLoop, "access-log");
		thread.setDaemon(true);
		thread.start();
		this.writer = thread;
	}

	@Override
	public void stop() {
		this.running = false;
		Thread thread = this.writer;
		if (thread != null) {
			try {
				thread.join(2_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Stops after the web server has drained, so that the last requests' lines are
	 * written.
	 */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 3072;
	}

	/** The fields of one line; {@code thread} is the thread that ended the request. */
	public record Entry(Instant at, String thread, String requestId, String method, String route, String path,
			int status, String partnerId, long durationMillis) {

		/** The message of a line without fields of its own (development runs). */
		String message() {
			return "request_id=" + this.requestId + " method=" + this.method + " route=" + this.route + " path="
					+ this.path + " status=" + this.status + " partner_id=" + this.partnerId + " duration_ms="
					+ this.durationMillis;
		}

	}

}
