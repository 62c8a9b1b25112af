package io.readmark.common.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/** An event stream on one connection: each event is written and flushed as one chunk. */
final class NettyEventSink implements EventSink {

    private final Channel channel;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean dropped;
    private final List<Runnable> closeActions = new CopyOnWriteArrayList<>();

    NettyEventSink(Channel channel) {
        this.channel = channel;
        channel.closeFuture().addListener(future -> closed());
    }

    @Override
    public boolean send(ServerSentEvent event) {
        return write(event.encode());
    }

    @Override
    public boolean retry(Duration delay) {
        return write(ServerSentEvent.retry(delay));
    }

    @Override
    public boolean comment(String text) {
        return write(ServerSentEvent.comment(text));
    }

    @Override
    public Executor executor() {
        return channel.eventLoop();
    }

    @Override
    public boolean isOpen() {
        return !closed.get() && channel.isActive();
    }

    @Override
    public boolean wasDropped() {
        return dropped;
    }

    @Override
    public void onClose(Runnable action) {
        closeActions.add(action);
        // Closed in between: run it now; closeActions is only drained once, so removal decides who runs it.
        if (closed.get() && closeActions.remove(action)) action.run();
    }

    @Override
    public void close() {
        if (channel.isActive()) {
            channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
        }
        closed();
    }

    private boolean write(byte[] bytes) {
        if (!isOpen()) return false;
        if (!channel.isWritable()) {
            // The client has not read what is queued: drop it rather than buffer without bound. Marked first, so
            // that the close actions, wherever they run, know the server closed it.
            dropped = true;
            channel.close();
            return false;
        }
        channel.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(bytes)));
        return true;
    }

    private void closed() {
        if (!closed.compareAndSet(false, true)) return;
        for (Runnable action : closeActions) {
            if (closeActions.remove(action)) action.run();
        }
    }
}
