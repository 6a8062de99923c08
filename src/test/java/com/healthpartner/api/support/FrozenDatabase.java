package com.healthpartner.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;

import org.springframework.r2dbc.core.DatabaseClient;

/**
 * A PostgreSQL that stopped answering: its port accepts TCP connections (the operating
 * system completes them) and nothing ever replies, as with a frozen server or a network
 * path that drops packets. Every statement sent to it waits forever unless the caller
 * gives up.
 */
public final class FrozenDatabase implements AutoCloseable {

	private final ServerSocket socket;

	public FrozenDatabase() {
		try {
			this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** A client of this database, without a pool or time limits of its own. */
	public DatabaseClient client() {
		return DatabaseClient.create(new PostgresqlConnectionFactory(PostgresqlConnectionConfiguration.builder()
			.host(this.socket.getInetAddress().getHostAddress())
			.port(this.socket.getLocalPort())
			.username("frozen")
			.database("frozen")
			.build()));
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
