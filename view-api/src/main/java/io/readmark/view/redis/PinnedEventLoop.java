package io.readmark.view.redis;

import io.lettuce.core.resource.EventLoopGroupProvider;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;

import java.util.concurrent.TimeUnit;

/**
 * Gives a Lettuce client one event loop for all its channels, reconnections included (an {@link EventLoop} is a group
 * of itself). The loop belongs to someone else, who shuts it down: a client only lets go of it.
 */
final class PinnedEventLoop implements EventLoopGroupProvider {

    private final EventLoop loop;

    PinnedEventLoop(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends EventLoopGroup> T allocate(Class<T> type) {
        // Lettuce only hands the group to Bootstrap.group(EventLoopGroup); the type asked for is the transport's.
        return (T) loop;
    }

    @Override
    public int threadPoolSize() {
        return 1;
    }

    @Override
    public Future<Boolean> release(EventExecutorGroup group, long quietPeriod, long timeout, TimeUnit unit) {
        return ImmediateEventExecutor.INSTANCE.newSucceededFuture(true);
    }

    @Override
    public Future<Boolean> shutdown(long quietPeriod, long timeout, TimeUnit unit) {
        return ImmediateEventExecutor.INSTANCE.newSucceededFuture(true);
    }
}
