package com.healthpartner.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.testcontainers.containers.GenericContainer;
import redis.embedded.RedisServer;

/**
 * A real Redis that a test can take away and bring back on the same address: the embedded
 * server is stopped and started again on its port; a container is paused (its clients see
 * a Redis that no longer answers) and unpaused. Chosen by
 * {@link TestInfrastructure#dedicatedRedis()}.
 */
public final class StoppableRedis implements AutoCloseable {

	private final String host;

	private final int port;

	private final RedisServer server;

	private final GenericContainer<?> container;

	private StoppableRedis(String host, int port, RedisServer server, GenericContainer<?> container) {
		this.host = host;
		this.port = port;
		this.server = server;
		this.container = container;
	}

	static StoppableRedis embedded(int port) {
		try {
			RedisServer server = new RedisServer(port);
			server.start();
			return new StoppableRedis("127.0.0.1", port, server, null);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start a dedicated embedded Redis", ex);
		}
	}

	@SuppressWarnings("resource")
	static StoppableRedis container() {
		GenericContainer<?> container = new GenericContainer<>("redis:7-alpine").withExposedPorts(6379);
		container.start();
		return new StoppableRedis(container.getHost(), container.getMappedPort(6379), null, container);
	}

	public String url() {
		return "redis://" + this.host + ":" + this.port;
	}

	public void stop() {
		if (this.server != null) {
			try {
				this.server.stop();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		else {
			this.container.getDockerClient().pauseContainerCmd(this.container.getContainerId()).exec();
		}
	}

	public void start() {
		if (this.server != null) {
			try {
				this.server.start();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		else {
			this.container.getDockerClient().unpauseContainerCmd(this.container.getContainerId()).exec();
		}
	}

	@Override
	public void close() {
		if (this.server != null) {
			try {
				if (this.server.isActive()) {
					this.server.stop();
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		else {
			this.container.stop();
		}
	}

}
