package io.readmark.common.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Collects a request's body up to {@link HttpLimits#maxBodyBytes}, counted while it arrives (a declared
 * {@code Content-Length} beyond it is refused before a byte is read), and answers anything larger with the usual
 * 413 problem instead of Netty's empty one. The connection is then closed once the client has sent the rest of its
 * body, which is read and dropped, or after a {@link LingeringClose} at the latest.
 */
final class BodyLimit extends HttpObjectAggregator {

    private final RequestTimeouts timeouts;
    private final Runnable onRefused;
    private boolean discarding;

    BodyLimit(int maxBodyBytes, RequestTimeouts timeouts, Runnable onRefused) {
        super(maxBodyBytes, true);
        this.timeouts = timeouts;
        this.onRefused = onRefused;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        onRefused.run();
        timeouts.requestRead();
        discarding = true;
        LingeringClose.answer(ctx, Responses.problem(Problem.of(413, "Payload too large",
                "the body exceeds " + maxContentLength() + " bytes")));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!discarding) {
            super.channelRead(ctx, msg);
            return;
        }
        boolean last = msg instanceof LastHttpContent;
        ReferenceCountUtil.release(msg);
        if (last) ctx.close();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (discarding) ctx.read();
        super.channelReadComplete(ctx);
    }
}
