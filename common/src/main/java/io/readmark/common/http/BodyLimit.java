package io.readmark.common.http;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;

/**
 * Collects a request's body up to {@link HttpLimits#maxBodyBytes}, counted while it arrives (a declared
 * {@code Content-Length} beyond it is refused before a byte is read), and answers anything larger with the usual
 * 413 problem instead of Netty's empty one.
 */
final class BodyLimit extends HttpObjectAggregator {

    private final Runnable onRefused;

    BodyLimit(int maxBodyBytes, Runnable onRefused) {
        super(maxBodyBytes, true);
        this.onRefused = onRefused;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        onRefused.run();
        FullHttpResponse response = Responses.problem(Problem.of(413, "Payload too large",
                "the body exceeds " + maxContentLength() + " bytes"));
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
}
