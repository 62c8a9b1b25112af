package io.readmark.common.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.util.ReferenceCountUtil;

/**
 * Keeps a connection's socket armed for reading while its request is answered: with auto-read off, Netty takes the
 * read interest off the socket after each read no {@code read()} is pending for and puts it back at the next, two
 * {@code epoll_ctl} calls per request. So this stage asks for one read itself and holds what it brings, unseen by
 * every later stage, until one of them asks for more: for them the order of answers, the request clock of a next
 * request and every limit behave as without it. It holds at most one read, copied to its size (up to one receive
 * buffer, 64 KiB); an end of input read ahead is held the same way, a reset closes the connection at once. First in
 * the pipeline; only touched on the connection's event loop.
 */
final class ReadAhead extends ChannelDuplexHandler {

    private ChannelHandlerContext ctx;
    /** A later stage asked for bytes: what arrives is theirs. Otherwise a read arriving is one read ahead. */
    private boolean asked;
    /** {@link #answering} was called during a read: the read ahead starts once that read is complete. */
    private boolean aheadAfterThisRead;
    private boolean inRead;
    private ByteBuf held;
    private boolean inputEnded;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** A request is being answered: read ahead, unless something read ahead is still held. */
    void answering() {
        if (held != null || inputEnded || !ctx.channel().isActive()) return;
        if (inRead) {
            aheadAfterThisRead = true;
        } else {
            asked = false;
        }
        ctx.read();
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        asked = true;
        aheadAfterThisRead = false; // an answer given within the read that asked: the next bytes are asked for
        if (held != null) {
            ByteBuf bytes = held;
            held = null;
            channelRead(ctx, bytes);
            channelReadComplete(ctx);
        } else if (inputEnded) {
            ctx.close();
        } else {
            ctx.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        inRead = true;
        if (asked || !(msg instanceof ByteBuf bytes)) {
            ctx.fireChannelRead(msg);
        } else if (held == null) {
            // A copy of its size: the receive buffer it came in may be far larger than a next request.
            held = ctx.alloc().buffer(bytes.readableBytes()).writeBytes(bytes);
            bytes.release();
        } else {
            // Cannot happen (nothing is read while something is held); were it to, the one-read bound would not hold.
            bytes.release();
            ctx.close();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inRead = false;
        if (aheadAfterThisRead) {
            aheadAfterThisRead = false;
            asked = false; // before passing the completion on: a stage asking for more then is asking for real
            ctx.fireChannelReadComplete();
        } else if (asked) {
            ctx.fireChannelReadComplete();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ChannelInputShutdownEvent) {
            if (asked) {
                ctx.close(); // what Netty does at the end of input when half-closure is off
            } else {
                inputEnded = true;
            }
        } else if (!(evt instanceof ChannelInputShutdownReadComplete)) {
            super.userEventTriggered(ctx, evt);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (held != null) {
            ReferenceCountUtil.release(held);
            held = null;
        }
    }
}
