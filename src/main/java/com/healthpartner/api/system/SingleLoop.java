package com.healthpartner.api.system;

import java.time.Duration;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * One event loop of the web server as the loop resources of a database client, so that
 * the client's connections are served by that loop. It never shuts the loop down: the web
 * server owns it.
 */
final class SingleLoop implements LoopResources {

	private final EventLoop loop;

	SingleLoop(EventLoop loop) {
		this.loop = loop;
	}

	@Override
	public EventLoopGroup onServer(boolean useNative) {
		return this.loop;
	}

	@Override
	public EventLoopGroup onClient(boolean useNative) {
		return this.loop;
	}

	@Override
	public EventLoopGroup onServerSelect(boolean useNative) {
		return this.loop;
	}

	@Override
	public boolean daemon() {
		return true;
	}

	@Override
	public void dispose() {
	}

	@Override
	public Mono<Void> disposeLater(Duration quietPeriod, Duration timeout) {
		return Mono.empty();
	}

}
