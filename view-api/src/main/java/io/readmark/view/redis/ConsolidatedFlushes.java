package io.readmark.view.redis;

import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;

/**
 * Lets a Redis channel flush once per turn of its event loop instead of once per command. Lettuce flushes every
 * command it writes; the commands of all the requests one turn of the loop serves (a counts read sends two to four)
 * then leave in one write, which saves a system call per command here and a read per command in Redis.
 */
final class ConsolidatedFlushes implements NettyCustomizer {

    /** Flush at the latest after this many commands, so that a long turn does not hold a large batch back. */
    private static final int MAX_PENDING_FLUSHES = 64;

    @Override
    public void afterChannelInitialized(Channel channel) {
        // Last in the pipeline, so it is the first to see the flush Lettuce issues on the channel.
        channel.pipeline().addLast(new FlushConsolidationHandler(MAX_PENDING_FLUSHES, true));
    }
}
