package com.healthpartner.api.web;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.internal.ThreadExecutorMap;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * A delay kept by the event loop that asks for it: the deadline of a request or of a wait
 * for a pooled connection is a task in that loop's own queue, set and cancelled by the
 * same thread, where Reactor's timers would hand each one to a scheduler thread and back.
 * A thread that is no event loop gets Reactor's parallel scheduler.
 */
public final class LoopTimer extends Mono<Long> {

	private final long nanos;

	private LoopTimer(Duration delay) {
		this.nanos = delay.toNanos();
	}

	/** Emits {@code 0} once {@code delay} has passed, then completes. */
	public static Mono<Long> after(Duration delay) {
		return new LoopTimer(delay);
	}

	@Override
	public void subscribe(CoreSubscriber<? super Long> actual) {
		EventExecutor loop = ThreadExecutorMap.currentExecutor();
		if (loop == null) {
			Mono.delay(Duration.ofNanos(this.nanos)).subscribe(actual);
			return;
		}
		Task task = new Task(actual);
		actual.onSubscribe(task);
		task.scheduled(loop.schedule(task, this.nanos, TimeUnit.NANOSECONDS));
	}

	private static final class Task implements Runnable, Subscription {

		private final CoreSubscriber<? super Long> actual;

		private final AtomicBoolean done = new AtomicBoolean();

		private volatile Future<?> future;

		Task(CoreSubscriber<? super Long> actual) {
			this.actual = actual;
		}

		void scheduled(Future<?> future) {
			this.future = future;
			if (this.done.get()) {
				future.cancel(false);
			}
		}

		@Override
		public void run() {
			if (this.done.compareAndSet(false, true)) {
				this.actual.onNext(0L);
				this.actual.onComplete();
			}
		}

		@Override
		public void request(long n) {
			// one value, asked for by every operator that waits on a delay
		}

		@Override
		public void cancel() {
			if (this.done.compareAndSet(false, true)) {
				Future<?> scheduled = this.future;
				if (scheduled != null) {
					scheduled.cancel(false);
				}
			}
		}

	}

}
