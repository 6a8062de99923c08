package com.healthpartner.api.problem;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.r2dbc.spi.R2dbcException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Hooks;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.client.PrematureCloseException;

import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * A client that goes away (closes or resets its connection in the middle of a request or
 * of an answer, or is cut off by the edge for a stalled body) is no fault of the service:
 * its traces are logged at {@code DEBUG}, real faults stay at {@code ERROR}. This bean
 * installs, once per JVM, Reactor's hook for errors dropped after a sequence ended (which
 * Reactor otherwise logs at {@code ERROR}, "Operator called default onErrorDropped"); the
 * problem handler asks {@link #isClientAbort} before it logs a failure.
 */
@Component
public final class ClientAborts {

	private static final Log log = LogFactory.getLog(ClientAborts.class);

	private static final AtomicBoolean installed = new AtomicBoolean();

	ClientAborts() {
		// the hook is cumulative: a second application context in the JVM must not add it
		// again
		if (installed.compareAndSet(false, true)) {
			Hooks.onErrorDropped(ClientAborts::dropped);
		}
	}

	private static void dropped(Throwable failure) {
		if (isClientAbort(failure)) {
			if (log.isDebugEnabled()) {
				log.debug("Client went away: " + failure);
			}
		}
		else {
			log.error("Operator called default onErrorDropped", failure);
		}
	}

	/**
	 * Whether {@code failure} (or one of its causes) says that the client's connection is
	 * gone, and it is not a database's failure.
	 */
	public static boolean isClientAbort(Throwable failure) {
		Throwable cause = failure;
		for (int depth = 0; cause != null && depth < 10; depth++) {
			if (cause instanceof R2dbcException || cause instanceof DataAccessException) {
				// a connection to the database that closed is no client's doing
				return false;
			}
			if (cause instanceof AbortedException || cause instanceof PrematureCloseException
					|| cause instanceof ClosedChannelException) {
				return true;
			}
			if (cause instanceof IOException && cause.getMessage() != null && isResetOrBrokenPipe(cause.getMessage())) {
				return true;
			}
			cause = (cause.getCause() != cause) ? cause.getCause() : null;
		}
		return false;
	}

	private static boolean isResetOrBrokenPipe(String message) {
		return message.contains("Connection reset by peer") || message.contains("Broken pipe");
	}

}
