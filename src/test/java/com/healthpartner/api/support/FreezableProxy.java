package com.healthpartner.api.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP proxy in front of a server, for failures a stopped server (which closes its
 * connections) does not show:
 * <ul>
 * <li>{@link #freezeOpenConnections()}: open connections die silently, their bytes
 * dropped both ways while both sockets stay open, as when a network path fails without a
 * FIN or RST (a half-open connection); connections made afterwards work;</li>
 * <li>{@link #freeze()}: no byte goes through on any connection, old or new, as with a
 * frozen server; {@link #thaw()} lets the held bytes go on.</li>
 * </ul>
 */
public final class FreezableProxy implements AutoCloseable {

	private final ServerSocket server;

	private final String targetHost;

	private final int targetPort;

	private final List<Link> links = new CopyOnWriteArrayList<>();

	private volatile boolean holding;

	private final ExecutorService threads = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "freezable-proxy");
		thread.setDaemon(true);
		return thread;
	});

	public FreezableProxy(String targetHost, int targetPort) {
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		try {
			this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.threads.execute(this::accept);
	}

	public int port() {
		return this.server.getLocalPort();
	}

	/** Every connection, open or made later, holds its bytes until {@link #thaw()}. */
	public void freeze() {
		this.holding = true;
	}

	public void thaw() {
		this.holding = false;
	}

	/** Connections open now carry no more bytes, either way, and are not closed. */
	public void freezeOpenConnections() {
		this.links.forEach((link) -> link.frozen = true);
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket(this.targetHost, this.targetPort);
				Link link = new Link(client, upstream);
				this.links.add(link);
				this.threads.execute(() -> pump(link, client, upstream));
				this.threads.execute(() -> pump(link, upstream, client));
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	private void pump(Link link, Socket from, Socket to) {
		byte[] buffer = new byte[16384];
		try {
			InputStream in = from.getInputStream();
			OutputStream out = to.getOutputStream();
			int read;
			while ((read = in.read(buffer)) >= 0) {
				while (this.holding && !this.server.isClosed()) {
					Thread.sleep(10);
				}
				// frozen: read and dropped, so that the sender sees no back pressure
				// either
				if (!link.frozen) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
		}
		catch (IOException | InterruptedException ex) {
			// one side is gone, or the proxy is closing
		}
		if (!link.frozen) {
			link.close();
		}
	}

	@Override
	public void close() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		this.links.forEach(Link::close);
		this.threads.shutdownNow();
	}

	private static final class Link {

		private final Socket client;

		private final Socket upstream;

		private volatile boolean frozen;

		private Link(Socket client, Socket upstream) {
			this.client = client;
			this.upstream = upstream;
		}

		private void close() {
			closeQuietly(this.client);
			closeQuietly(this.upstream);
		}

		private static void closeQuietly(Socket socket) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// already closed
			}
		}

	}

}
