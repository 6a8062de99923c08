package com.healthpartner.api.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of a server that a test can freeze: connections stay open but no
 * byte goes through, as with a frozen server or a network that silently drops packets
 * (the failure a stopped server, which closes its connections, does not show). Thawed,
 * the held bytes go on.
 */
public final class FreezableProxy implements AutoCloseable {

	private final ServerSocket server;

	private final String targetHost;

	private final int targetPort;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile boolean frozen;

	private volatile boolean closed;

	public FreezableProxy(String targetHost, int targetPort) {
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		try {
			this.server = new ServerSocket();
			this.server.bind(new InetSocketAddress("127.0.0.1", 0));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread acceptor = new Thread(this::accept, "freezable-proxy-accept");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	public int port() {
		return this.server.getLocalPort();
	}

	public void freeze() {
		this.frozen = true;
	}

	public void thaw() {
		this.frozen = false;
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket(this.targetHost, this.targetPort);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pump(client, upstream);
				pump(upstream, client);
			}
			catch (IOException ex) {
				// closed, or the target refused: the client sees its connection end
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					while (this.frozen && !this.closed) {
						Thread.sleep(10);
					}
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// one side went away
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "freezable-proxy-pump");
		thread.setDaemon(true);
		thread.start();
	}

	@Override
	public void close() {
		this.closed = true;
		closeQuietly(this.server);
		this.sockets.forEach(FreezableProxy::closeQuietly);
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing anyway
		}
	}

}
