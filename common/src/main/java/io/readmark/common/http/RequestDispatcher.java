package io.readmark.common.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Hands each complete request of one connection to the {@link Router}: on a virtual thread when its route may block
 * (on Redis or Kafka), here on the event loop when it does not; the answer is written back on the event loop. A
 * connection is read one request at a time (auto-read off, behind a flow-control handler, with {@link ReadAhead}):
 * pipelined requests are answered in order and a client cannot queue work faster than it is answered. Malformed
 * requests get a fixed problem and the connection is closed, as its framing is lost.
 */
final class RequestDispatcher extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger log = LoggerFactory.getLogger(RequestDispatcher.class);

    private final Router router;
    private final Runnable becameStream;
    private final Executor executor;
    private final HttpLimits limits;
    private final RequestTimeouts timeouts;
    private final ReadAhead readAhead;
    private boolean streaming;
    private boolean failureLogged;

    /** @param becameStream run once the connection turns into an event stream */
    RequestDispatcher(Router router, Executor executor, HttpLimits limits, RequestTimeouts timeouts, ReadAhead readAhead,
                      Runnable becameStream) {
        this.becameStream = becameStream;
        this.router = router;
        this.executor = executor;
        this.limits = limits;
        this.timeouts = timeouts;
        this.readAhead = readAhead;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        super.channelActive(ctx);
        ctx.read();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        long started = System.nanoTime();
        timeouts.requestRead();
        readAhead.answering();
        if (streaming) {
            // An event stream's client has nothing more to send; a request on it is not HTTP we can answer.
            ctx.close();
            return;
        }
        DecoderResult decoded = request.decoderResult();
        if (decoded.isFailure()) {
            refuse(ctx, malformed(decoded.cause()), started);
            return;
        }
        if (!request.protocolVersion().equals(HttpVersion.HTTP_1_1) && !request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            refuse(ctx, malformed(null), started);
            return;
        }
        if (request.headers().size() > limits.maxHeaderCount()) {
            refuse(ctx, Problem.of(431, "Request header fields too large",
                    "a request may have at most " + limits.maxHeaderCount() + " header lines"), started);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpVersion version = request.protocolVersion();
        String method = request.method().name();
        String target = request.uri();
        HttpHeaders headers = request.headers();
        byte[] body = ByteBufUtil.getBytes(request.content());
        Router.Call call = router.prepare(method, target, headers::get, name -> headers.getAll(name).size(), body);
        if (!call.blocking()) {
            run(ctx, call, keepAlive, version);
            return;
        }
        try {
            executor.execute(() -> run(ctx, call, keepAlive, version));
        } catch (RejectedExecutionException e) {
            ctx.close(); // shutting down
        }
    }

    /** Runs the call here and answers on the event loop, wherever the answer completes. */
    private void run(ChannelHandlerContext ctx, Router.Call call, boolean keepAlive, HttpVersion version) {
        call.run().get().thenAccept(response -> {
            if (ctx.executor().inEventLoop()) {
                answer(ctx, response, keepAlive, version);
            } else {
                ctx.executor().execute(() -> answer(ctx, response, keepAlive, version));
            }
        });
    }

    private void answer(ChannelHandlerContext ctx, Response response, boolean keepAlive, HttpVersion version) {
        if (response.body() instanceof Response.EventStream stream) {
            openStream(ctx, response, stream);
            return;
        }
        FullHttpResponse full = Responses.full(response);
        full.setProtocolVersion(version);
        HttpUtil.setKeepAlive(full, keepAlive);
        ctx.writeAndFlush(full).addListener((ChannelFutureListener) written -> {
            if (!keepAlive || !written.isSuccess()) {
                ctx.close();
            } else {
                timeouts.idle();
                ctx.read();
            }
        });
    }

    private void openStream(ChannelHandlerContext ctx, Response response, Response.EventStream stream) {
        streaming = true;
        becameStream.run();
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(response.status()));
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED)
                // Proxies such as nginx would otherwise buffer the stream and deliver events late.
                .set("X-Accel-Buffering", "no");
        response.headers().forEach(head.headers()::set);
        ctx.writeAndFlush(head);
        NettyEventSink sink = new NettyEventSink(ctx.channel());
        // Keep reading, so that a client going away is noticed at once, not at the next event.
        ctx.read();
        try {
            executor.execute(() -> stream.opened().accept(sink));
        } catch (RejectedExecutionException e) {
            sink.close();
        }
    }

    private void refuse(ChannelHandlerContext ctx, Problem problem, long started) {
        router.record("OTHER", RequestMetrics.UNKNOWN_ROUTE, problem.status(), started);
        LingeringClose.answer(ctx, Responses.problem(problem));
    }

    private static Problem malformed(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return Problem.of(414, "URI too long", "the request line is longer than the server accepts");
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return Problem.of(431, "Request header fields too large", "the headers are larger than the server accepts");
        }
        return Problem.of(400, "Bad request", "the request is not valid HTTP/1.1");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Clients reset connections all the time: worth a debug line, once per connection, never a stack trace flood.
        if (!failureLogged) {
            failureLogged = true;
            if (cause instanceof IOException) {
                log.debug("client connection broken: {}", cause.toString());
            } else {
                log.debug("connection closed after an error: {}", cause.toString());
            }
        }
        ctx.close();
    }
}
