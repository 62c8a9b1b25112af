package io.readmark.common.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;

import java.util.concurrent.TimeUnit;

/**
 * Answers a request the server will not finish reading, then closes its connection the way clients can read the
 * answer: closing a socket with unread input sends a reset, which can destroy the answer before the client reads it.
 * So the answer goes out with {@code Connection: close}, input keeps being read (and dropped by the stage that
 * refused it) for at most {@link #LINGER_MILLIS}, and only then is the connection closed, or earlier by the client.
 */
final class LingeringClose {

    static final long LINGER_MILLIS = 2_000;

    private LingeringClose() {
    }

    /** Writes {@code response} through the whole pipeline (so the HTTP encoder sees it) and lingers. */
    static void answer(ChannelHandlerContext ctx, FullHttpResponse response) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.channel().writeAndFlush(response);
        ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
        ctx.channel().read();
    }
}
