package io.readmark.common.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ReferenceCountUtil;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The clocks of one connection, early in its pipeline so it sees bytes before the HTTP decoder does. A new connection
 * must send its first byte within {@link HttpLimits#firstByteTimeout}, else it is closed: one that never sends holds a
 * connection for nothing. A kept-alive connection waiting for its next request may stay {@link HttpLimits#idleTimeout}.
 * Once a request's first byte arrives, the whole request must follow within {@link HttpLimits#requestTimeout} or it is
 * answered 408 and closed: that frees a connection that sends half a header and then nothing. While a request is
 * being answered, or an event stream is open, no clock runs. Only touched on the connection's event loop.
 */
final class RequestTimeouts extends ChannelDuplexHandler {

    private enum State { IDLE, READING, ANSWERING, TIMED_OUT }

    private final HttpLimits limits;
    private final Runnable onTimeout;
    private final Runnable onSilent;
    private State state = State.IDLE;
    private ScheduledFuture<?> timer;
    private ChannelHandlerContext ctx;

    /**
     * @param onTimeout counts a request that was too slow (metrics)
     * @param onSilent  counts a connection closed without a first byte (metrics)
     */
    RequestTimeouts(HttpLimits limits, Runnable onTimeout, Runnable onSilent) {
        this.limits = limits;
        this.onTimeout = onTimeout;
        this.onSilent = onSilent;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        schedule(limits.firstByteTimeout().toMillis(), () -> {
            onSilent.run();
            ctx.close();
        });
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (state == State.TIMED_OUT) {
            // Answered 408: the rest of that request is dropped here, before it could complete and be served.
            ReferenceCountUtil.release(msg);
            return;
        }
        if (state == State.IDLE && msg instanceof ByteBuf bytes && bytes.isReadable()) {
            cancel(); // the waiting clock: left running, it would close this connection in the middle of later requests
            state = State.READING;
            schedule(limits.requestTimeout().toMillis(), this::requestTooSlow);
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    /** The request is complete: it is being answered, with no clock running. */
    void requestRead() {
        cancel();
        state = State.ANSWERING;
    }

    /** The answer is sent and the connection kept: wait for the next request, at most the idle timeout. */
    void idle() {
        cancel();
        state = State.IDLE;
        schedule(limits.idleTimeout().toMillis(), () -> ctx.close());
    }

    private void requestTooSlow() {
        onTimeout.run();
        state = State.TIMED_OUT;
        LingeringClose.answer(ctx, Responses.problem(Problem.of(408, "Request timeout",
                "the request was not received within " + limits.requestTimeout().toMillis() + " ms")));
    }

    private void schedule(long millis, Runnable action) {
        timer = ctx.executor().schedule(action, millis, TimeUnit.MILLISECONDS);
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
