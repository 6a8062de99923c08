package com.healthpartner.api.system;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * Loop resources over loops the service chose itself: one event loop of the web server
 * for a database client ({@link #of}, so that the client's connections are served by that
 * loop; never shut down here, the web server owns it), or the web server's loops on epoll
 * for {@code APP_IO_URING=false} ({@link #epoll}; Reactor Netty's own loop resources take
 * io_uring whenever the kernel offers it). The channels follow the loops (Reactor Netty
 * gives an epoll loop epoll channels, an io_uring loop io_uring channels).
 */
final class GivenLoops implements LoopResources {

	private final EventLoopGroup group;

	/**
	 * The web server's loops ({@link #epoll}); otherwise one loop lent to a database
	 * client ({@link #of}), the only use of borrowed loops, whose channels get
	 * {@link FrameCumulation}.
	 */
	private final boolean owned;

	private GivenLoops(EventLoopGroup group, boolean owned) {
		this.group = group;
		this.owned = owned;
	}

	/** {@code loop}, borrowed: disposing these resources leaves it running. */
	static GivenLoops of(EventLoopGroup loop) {
		return new GivenLoops(loop, false);
	}

	/** {@code loops} new epoll loops named after {@code prefix}, shut down on dispose. */
	static GivenLoops epoll(String prefix, int loops) {
		return new GivenLoops(new MultiThreadIoEventLoopGroup(loops, new DefaultThreadFactory(prefix, true),
				EpollIoHandler.newFactory()), true);
	}

	/**
	 * A channel of the type asked for; a database client's ({@link #of}) gets
	 * {@link FrameCumulation} first in its pipeline.
	 */
	@Override
	public <C extends Channel> C onChannel(Class<C> type, EventLoopGroup group) {
		C channel = LoopResources.super.onChannel(type, group);
		if (!this.owned) {
			channel.pipeline().addFirst(FrameCumulation.INSTANCE);
		}
		return channel;
	}

	@Override
	public EventLoopGroup onServer(boolean useNative) {
		return this.group;
	}

	@Override
	public EventLoopGroup onServerSelect(boolean useNative) {
		return this.group;
	}

	@Override
	public boolean daemon() {
		return true;
	}

	@Override
	public boolean isDisposed() {
		return this.owned && this.group.isShutdown();
	}

	@Override
	public Mono<Void> disposeLater(Duration quietPeriod, Duration timeout) {
		if (!this.owned) {
			return Mono.empty();
		}
		return Mono.create((sink) -> this.group
			.shutdownGracefully(quietPeriod.toMillis(), timeout.toMillis(), TimeUnit.MILLISECONDS)
			.addListener((done) -> sink.success()));
	}

}
