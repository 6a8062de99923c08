package com.healthpartner.api.system;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Micrometer's {@code logback.events} counter (Prometheus {@code logback_events_total}, a
 * series per level), counted by an appender on the root logger instead of the turbo
 * filter of Micrometer's {@code LogbackMetrics}, which Spring Boot would install and this
 * service excludes ({@code spring.autoconfigure.exclude}). Logback asks every turbo
 * filter on every {@code isDebugEnabled}/{@code isTraceEnabled} of every library,
 * thousands a second on the event loops, where an appender sees only the events that are
 * written: 1-1.7 % of the service's CPU on a page or a refused request
 * (docs/performance.md). It counts what reaches the root logger's appenders, which is
 * every event written, since no logger of this service turns additivity off. Hand-written
 * because neither Micrometer nor Logback has a counting appender.
 */
@Component
class LogEvents implements MeterBinder, DisposableBean {

	/**
	 * The appenders of every instance in this JVM, which shares one Logback context: a
	 * new application context configures the logging again and drops them all (Logback's
	 * {@code stop()} also drops its listeners), so each instance attaches them all again.
	 */
	private static final List<Counting> live = new CopyOnWriteArrayList<>();

	private static final AtomicInteger names = new AtomicInteger();

	/** Attaches them again after a reset of the logging that keeps the listeners. */
	private static final Reattach reattach = new Reattach();

	private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();

	private final List<Counting> own = new CopyOnWriteArrayList<>();

	@Override
	public void bindTo(MeterRegistry registry) {
		Map<Kind, Counter> counters = new EnumMap<>(Kind.class);
		for (Kind kind : Kind.values()) {
			counters.put(kind,
					Counter.builder("logback.events")
						.tag("level", kind.tag)
						.description("Number of log events that were enabled by the effective log level")
						.baseUnit(BaseUnits.EVENTS)
						.register(registry));
		}
		Counting counting = new Counting(counters);
		counting.setContext(this.context);
		counting.setName("logback-events-" + names.incrementAndGet());
		this.own.add(counting);
		live.add(counting);
		if (!this.context.getCopyOfListenerList().contains(reattach)) {
			this.context.addListener(reattach);
		}
		attach(this.context);
	}

	private static void attach(LoggerContext context) {
		Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
		for (Counting counting : live) {
			if (root.getAppender(counting.getName()) == null) {
				counting.start();
				root.addAppender(counting);
			}
		}
	}

	@Override
	public void destroy() {
		Logger root = this.context.getLogger(Logger.ROOT_LOGGER_NAME);
		for (Counting counting : this.own) {
			live.remove(counting);
			root.detachAppender(counting);
			counting.stop();
		}
		this.own.clear();
	}

	/** The levels counted, each with its tag. */
	private enum Kind {

		ERROR("error"), WARN("warn"), INFO("info"), DEBUG("debug"), TRACE("trace");

		private final String tag;

		Kind(String tag) {
			this.tag = tag;
		}

		static Kind of(Level level) {
			return switch (level.toInt()) {
				case Level.ERROR_INT -> ERROR;
				case Level.WARN_INT -> WARN;
				case Level.INFO_INT -> INFO;
				case Level.DEBUG_INT -> DEBUG;
				default -> TRACE;
			};
		}

	}

	private static final class Counting extends UnsynchronizedAppenderBase<ILoggingEvent> {

		private final Map<Kind, Counter> counters;

		Counting(Map<Kind, Counter> counters) {
			this.counters = counters;
		}

		@Override
		protected void append(ILoggingEvent event) {
			this.counters.get(Kind.of(event.getLevel())).increment();
		}

	}

	private static final class Reattach implements LoggerContextListener {

		@Override
		public boolean isResetResistant() {
			return true;
		}

		@Override
		public void onStart(LoggerContext context) {
		}

		@Override
		public void onReset(LoggerContext context) {
			attach(context);
		}

		@Override
		public void onStop(LoggerContext context) {
		}

		@Override
		public void onLevelChange(Logger logger, Level level) {
		}

	}

}
