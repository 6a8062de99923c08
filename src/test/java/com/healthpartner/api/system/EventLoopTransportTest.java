package com.healthpartner.api.system;

import java.time.Duration;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringSocketChannel;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.LoopResources;

import org.springframework.http.client.ReactorResourceFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The web server's loops, and the database connections they serve, run on io_uring where
 * the kernel offers it and on epoll otherwise or when {@code APP_IO_URING=false} says so.
 */
class EventLoopTransportTest {

	@Test
	void takesIoUringWhereTheKernelOffersIt() {
		ReactorResourceFactory resources = start(true);
		try {
			LoopResources loops = resources.getLoopResources();
			EventLoopGroup group = loops.onServer(true);
			boolean ioUring = IoUring.isAvailable();
			assertThat(((IoEventLoopGroup) group).isIoType(ioUring ? IoUringIoHandler.class : EpollIoHandler.class))
				.isTrue();
			assertThat(loops.onChannelClass(SocketChannel.class, group))
				.isEqualTo(ioUring ? IoUringSocketChannel.class : EpollSocketChannel.class);
			assertThat(group).hasSize(2);
		}
		finally {
			resources.destroy();
		}
	}

	@Test
	void staysOnEpollWhenAsked() {
		ReactorResourceFactory resources = start(false);
		try {
			LoopResources loops = resources.getLoopResources();
			EventLoopGroup group = loops.onServer(true);
			assertThat(((IoEventLoopGroup) group).isIoType(EpollIoHandler.class)).isTrue();
			assertThat(loops.onChannelClass(SocketChannel.class, group)).isEqualTo(EpollSocketChannel.class);
			assertThat(group).hasSize(2);
			loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block();
			assertThat(loops.isDisposed()).isTrue();
		}
		finally {
			resources.destroy();
		}
	}

	private static ReactorResourceFactory start(boolean ioUring) {
		ReactorResourceFactory resources = new DatabaseConfiguration().reactorResourceFactory(2, ioUring);
		resources.afterPropertiesSet();
		return resources;
	}

}
