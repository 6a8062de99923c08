package com.healthpartner.api.edge;

import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.problem.ProblemWriter;
import com.healthpartner.api.problem.RequestIds;

/**
 * The HTTP edge of one connection, between Netty's HTTP decoder and Reactor Netty,
 * reading only what the decoder made of the bytes: a head that frames its body
 * ambiguously or is too long is refused ({@link EdgeRefusal}) and the connection closed;
 * a request not whole within the read timeout gets {@code 408}; an idle connection is
 * closed; a {@code Connection: close} behind pipelined requests is answered after them; a
 * used-up plan's {@code 429} ({@link EarlyAnswers}) is answered here from memory.
 * Details: docs/design.md, The HTTP edge.
 */
final class HttpEdge extends ChannelDuplexHandler {

	/** Nothing of a next request has arrived. */
	private static final int IDLE = 0;

	/** Part of a request head has arrived. */
	private static final int HEAD = 1;

	/** A head has arrived, its body not all of it. */
	private static final int BODY = 2;

	/** How long a closing connection is drained before it is closed. */
	private static final long LINGER_MILLIS = 2000;

	private final long readTimeout;

	private final long idleTimeout;

	private final int maxTarget;

	private final ProblemWriter problems;

	private final EarlyAnswers early;

	private final Runnable expiry = this::expired;

	private ChannelHandlerContext ctx;

	private int inbound = IDLE;

	/** When the request being read began, or when the connection became idle. */
	private long since;

	/** Requests passed on whose answer is not complete. */
	private int pending;

	/** The request being read or answered last. */
	private HttpRequest current;

	private boolean responseStarted;

	/** Answers to complete before the connection is closed by us (0: none to count). */
	private int closeAfter;

	/** The last request was passed on: discard everything after its end. */
	private boolean lastRequest;

	private boolean discarding;

	/** A request answered here: its body is read and dropped. */
	private boolean dropping;

	/**
	 * The web layer streams the body being read ({@link #streamBody}): it may take as
	 * long as it needs, as long as no read timeout passes without a byte of it.
	 */
	private boolean streaming;

	private boolean lingering;

	private boolean decodedThisRead;

	private boolean readAsked;

	private ScheduledFuture<?> timer;

	private long timerDue;

	HttpEdge(EdgeProperties properties, ProblemWriter problems, EarlyAnswers early) {
		this.readTimeout = properties.requestReadTimeout().toNanos();
		this.idleTimeout = properties.idleTimeout().toNanos();
		this.maxTarget = properties.maxRequestTarget();
		this.problems = problems;
		this.early = early;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.ctx = ctx;
		this.since = System.nanoTime();
		arm(this.idleTimeout);
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		if (this.timer != null) {
			this.timer.cancel(false);
			this.timer = null;
		}
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (this.discarding) {
			ReferenceCountUtil.release(msg);
			return;
		}
		this.decodedThisRead = true;
		if (this.dropping) {
			drop(ctx, msg);
			return;
		}
		if (msg instanceof HttpRequest request) {
			request(ctx, request);
			return;
		}
		if (msg instanceof LastHttpContent) {
			requestEnded();
		}
		else if (this.streaming && this.inbound == BODY) {
			this.since = System.nanoTime();
		}
		if (msg instanceof DecoderResultProvider provider && provider.decoderResult().isFailure()) {
			// a body that broke off: Reactor Netty fails the request; nothing after it is
			// read
			this.discarding = true;
		}
		ctx.fireChannelRead(msg);
	}

	private void request(ChannelHandlerContext ctx, HttpRequest request) {
		EdgeRefusal refusal = refusal(request);
		if (refusal == null && answeredHere(ctx, request)) {
			return;
		}
		HttpRequest passed = request;
		if (refusal != null) {
			passed = standIn(request, refusal);
			ReferenceCountUtil.release(request);
		}
		else {
			request.headers().remove(EdgeRefusal.HEADER);
		}
		if (refusal != null || !HttpUtil.isKeepAlive(request)) {
			this.lastRequest = true;
			if (this.pending > 0) {
				// answered after the others, then closed by us
				HttpUtil.setKeepAlive(passed, true);
				this.closeAfter = this.pending + 1;
			}
			else {
				HttpUtil.setKeepAlive(passed, false);
			}
		}
		this.pending++;
		this.current = passed;
		if (this.inbound == IDLE) {
			this.since = System.nanoTime();
		}
		this.inbound = BODY;
		if (passed instanceof LastHttpContent) {
			requestEnded();
		}
		else {
			arm(this.readTimeout);
		}
		ctx.fireChannelRead(passed);
	}

	/**
	 * Answers the request here if the web layer can from memory and the connection allows
	 * it: nothing else is being answered on it (answers go out in order), it stays open,
	 * it speaks HTTP/1.1 and no {@code 100 Continue} is expected (the client would wait
	 * for it before sending the body this reads and drops).
	 */
	private boolean answeredHere(ChannelHandlerContext ctx, HttpRequest request) {
		if (this.early == null || this.pending > 0 || request.protocolVersion() != HttpVersion.HTTP_1_1
				|| !HttpUtil.isKeepAlive(request) || HttpUtil.is100ContinueExpected(request)) {
			return false;
		}
		FullHttpResponse answer = this.early.answer(request, RequestTargets.pathFor(request.uri(), this.maxTarget));
		if (answer == null) {
			return false;
		}
		boolean whole = request instanceof LastHttpContent;
		ReferenceCountUtil.release(request);
		ctx.writeAndFlush(answer);
		if (whole) {
			answeredHereEnded(ctx);
		}
		else {
			this.dropping = true;
			this.inbound = BODY;
			this.since = System.nanoTime();
			arm(this.readTimeout);
		}
		return true;
	}

	/** Part of the body of a request answered here. */
	private void drop(ChannelHandlerContext ctx, Object msg) {
		boolean broken = msg instanceof DecoderResultProvider provider && provider.decoderResult().isFailure();
		boolean last = msg instanceof LastHttpContent;
		ReferenceCountUtil.release(msg);
		if (broken) {
			this.discarding = true;
			ctx.close();
		}
		else if (last) {
			answeredHereEnded(ctx);
		}
	}

	/** A request answered here has been read whole: the connection waits for the next. */
	private void answeredHereEnded(ChannelHandlerContext ctx) {
		this.dropping = false;
		this.inbound = IDLE;
		this.since = System.nanoTime();
		arm(this.idleTimeout);
		ctx.read();
	}

	private void requestEnded() {
		this.inbound = IDLE;
		this.streaming = false;
		if (this.lastRequest) {
			this.discarding = true;
		}
	}

	private EdgeRefusal refusal(HttpRequest request) {
		DecoderResult result = request.decoderResult();
		if (result.isFailure()) {
			Throwable cause = result.cause();
			if (cause instanceof TooLongHttpLineException) {
				return EdgeRefusal.TARGET_TOO_LONG;
			}
			return (cause instanceof TooLongHttpHeaderException) ? EdgeRefusal.HEAD_TOO_LARGE : EdgeRefusal.BAD_HEAD;
		}
		HttpHeaders headers = request.headers();
		List<String> codings = headers.getAll(HttpHeaderNames.TRANSFER_ENCODING);
		List<String> lengths = headers.getAll(HttpHeaderNames.CONTENT_LENGTH);
		if (!codings.isEmpty() && (codings.size() > 1 || !lengths.isEmpty()
				|| !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(codings.get(0).trim()))) {
			return EdgeRefusal.BAD_HEAD;
		}
		if (lengths.size() > 1 || (lengths.size() == 1 && !digits(lengths.get(0)))) {
			return EdgeRefusal.BAD_HEAD;
		}
		String target = request.uri();
		if (target.length() > this.maxTarget) {
			return EdgeRefusal.TARGET_TOO_LONG;
		}
		return RequestTargets.valid(target) ? null : EdgeRefusal.BAD_TARGET;
	}

	private static boolean digits(String value) {
		int length = value.length();
		if (length == 0 || length > 18) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (c < '0' || c > '9') {
				return false;
			}
		}
		return true;
	}

	/**
	 * The request the web layer sees instead of a refused one: its path where it can be
	 * told, the headers that identify the request and its client, no body.
	 */
	private HttpRequest standIn(HttpRequest refused, EdgeRefusal refusal) {
		// a head the decoder could not start on has a made-up target
		boolean readable = !(refused.decoderResult().cause() instanceof TooLongHttpLineException)
				&& !"/bad-request".equals(refused.uri());
		String path = readable ? RequestTargets.pathFor(refused.uri(), this.maxTarget) : "/";
		DefaultFullHttpRequest standIn = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1,
				readable ? refused.method() : io.netty.handler.codec.http.HttpMethod.GET, path, Unpooled.EMPTY_BUFFER);
		HttpHeaders headers = standIn.headers();
		copy(refused.headers(), headers, HttpHeaderNames.HOST);
		copy(refused.headers(), headers, RequestIds.HEADER);
		copy(refused.headers(), headers, "X-Forwarded-For");
		headers.set(HttpHeaderNames.CONTENT_LENGTH, 0);
		headers.set(EdgeRefusal.HEADER, refusal.name());
		return standIn;
	}

	private static void copy(HttpHeaders from, HttpHeaders to, CharSequence name) {
		List<String> values = from.getAll(name);
		if (!values.isEmpty()) {
			to.set(name, values);
		}
	}

	@Override
	public void channelReadComplete(ChannelHandlerContext ctx) {
		if (this.inbound == IDLE && !this.decodedThisRead && !this.discarding) {
			// bytes arrived and the decoder made nothing of them yet: a head has begun
			this.inbound = HEAD;
			this.since = System.nanoTime();
			arm(this.readTimeout);
		}
		this.decodedThisRead = false;
		this.readAsked = false;
		ctx.fireChannelReadComplete();
		if (this.lingering || this.dropping) {
			ctx.read();
		}
	}

	/**
	 * Closes a connection whose client may still be sending (a refused or timed-out
	 * request, a body nobody read) gently: the answer goes out, then the end of the
	 * stream, and what the client still sends is read and dropped for a moment before
	 * closing; closing at once with unread bytes resets the connection, which can destroy
	 * the answer before the client reads it.
	 */
	@Override
	public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
		if (!this.discarding || this.lingering || !ctx.channel().isActive()
				|| !(ctx.channel() instanceof DuplexChannel duplex)) {
			ctx.close(promise);
			return;
		}
		this.lingering = true;
		duplex.shutdownOutput()
			.addListener(
					(done) -> ctx.executor().schedule(() -> ctx.close(promise), LINGER_MILLIS, TimeUnit.MILLISECONDS));
		ctx.read();
	}

	@Override
	public void read(ChannelHandlerContext ctx) {
		this.readAsked = true;
		ctx.read();
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (msg instanceof HttpResponse response) {
			if (response.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
				ctx.write(msg, promise);
				return;
			}
			this.responseStarted = true;
			if (this.closeAfter == 1) {
				HttpUtil.setKeepAlive(response, false);
			}
		}
		if (msg instanceof LastHttpContent && this.responseStarted) {
			this.responseStarted = false;
			this.pending = Math.max(0, this.pending - 1);
			if (this.closeAfter > 0 && --this.closeAfter == 0) {
				ctx.write(msg, promise.unvoid()).addListener(ChannelFutureListener.CLOSE);
				return;
			}
			if (this.pending == 0 && this.inbound == IDLE) {
				this.since = System.nanoTime();
				arm(this.idleTimeout);
			}
		}
		ctx.write(msg, promise);
	}

	/**
	 * Makes sure the timer fires within {@code delay}; a timer already due earlier is
	 * kept (when it fires it works out what is due next).
	 */
	private void arm(long delay) {
		long due = System.nanoTime() + delay;
		if (this.timer != null) {
			if (this.timerDue - due <= 0) {
				return;
			}
			this.timer.cancel(false);
		}
		this.timerDue = due;
		this.timer = this.ctx.executor().schedule(this.expiry, delay, TimeUnit.NANOSECONDS);
	}

	/**
	 * The body of the request being read is streamed by the web layer (an import's
	 * upload): from now on it has no time limit as a whole, only one of the read timeout
	 * between two of its chunks while the service waits for them. Called on the
	 * connection's event loop.
	 */
	void streamBody() {
		if (this.inbound == BODY && !this.dropping) {
			this.streaming = true;
			this.since = System.nanoTime();
		}
	}

	/**
	 * Whether the service waits for the body of the request being read: it has asked for
	 * more of it and the client has not sent it.
	 */
	boolean waitingForBody() {
		return this.inbound == BODY && (this.dropping || this.readAsked || this.ctx.channel().config().isAutoRead());
	}

	private void expired() {
		this.timer = null;
		if (!this.ctx.channel().isActive() || this.discarding) {
			return;
		}
		long now = System.nanoTime();
		if (this.inbound != IDLE) {
			long left = this.since + this.readTimeout - now;
			if (left > 0) {
				arm(left);
			}
			else if (this.inbound == BODY && !waitingForBody()) {
				// the service is not reading the body yet: it is not the client that is
				// late
				arm(this.readTimeout);
			}
			else {
				timedOut();
			}
		}
		else if (this.pending == 0) {
			long left = this.since + this.idleTimeout - now;
			if (left > 0) {
				arm(left);
			}
			else {
				this.ctx.close();
			}
		}
		else {
			arm(this.readTimeout);
		}
	}

	/**
	 * The request being read stopped arriving: {@code 408} if it can still be said, then
	 * close.
	 */
	private void timedOut() {
		this.discarding = true;
		boolean canAnswer = !this.responseStarted && this.pending == ((this.inbound == BODY) ? 1 : 0);
		if (!canAnswer) {
			this.ctx.close();
			return;
		}
		long seconds = TimeUnit.NANOSECONDS.toSeconds(this.readTimeout);
		ApiException problem = new ApiException(ProblemType.REQUEST_TIMEOUT,
				this.streaming
						? "The upload stopped: no byte of it arrived for " + seconds
								+ " s; nothing of it was stored. The connection is closed."
						: "The request did not arrive whole within " + seconds
								+ " s of its first byte; nothing was written. The connection is closed.");
		HttpRequest request = (this.inbound == BODY) ? this.current : null;
		String id = RequestIds.chooseFor((request != null) ? request.headers().get(RequestIds.HEADER) : null);
		String path = (request != null) ? RequestTargets.pathFor(request.uri(), this.maxTarget) : "/";
		FullHttpResponse response = this.problems.answer(path, id, problem,
				(headers) -> headers.set(RequestIds.HEADER, id));
		response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
		this.responseStarted = true;
		this.ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
	}

}
