package io.readmark.view.push;

import io.readmark.view.redis.RedisConnector;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.readmark.store.redis.RedisConnections;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * This instance's subscriptions to users' change channels (written by the scripts' {@code notify.lua}): one Pub/Sub
 * connection per Redis node that serves a subscribed channel (one when standalone), shared by every stream on it.
 * Several instances each subscribe for their own streams; Redis sends each a copy.
 */
public final class ChangeFeed implements AutoCloseable {

    /** Told of the messages on one channel, and once if the subscription is lost (messages may have been missed). */
    interface Listener {
        void changed(String message);

        void lost();
    }

    /** Ends one listener's subscription; idempotent. */
    interface Subscription {
        void cancel();
    }

    private final RedisConnector connector;
    private final Duration timeout;
    /** A lock, not a monitor: opening a node's connection blocks, which would pin a virtual thread on Java 21. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<RedisURI, NodeSubscriber> nodes = new HashMap<>(); // guarded by lock
    private boolean closed; // guarded by lock

    public ChangeFeed(RedisConnector connector, Duration timeout) {
        this.connector = connector;
        this.timeout = timeout;
    }

    /**
     * Subscribes and returns once Redis confirmed it, so that every message published afterwards reaches the listener.
     *
     * @throws io.lettuce.core.RedisException when Redis cannot be reached or does not confirm in time
     */
    Subscription subscribe(String channel, Listener listener) {
        RedisConnections connections = connector.connections()
                .orElseThrow(() -> new RedisConnectionException("Redis is not connected yet"));
        RedisURI node = connections.pubSubNode(channel);
        NodeSubscriber subscriber;
        lock.lock();
        try {
            if (closed) throw new RedisConnectionException("the view API is shutting down");
            subscriber = nodes.get(node);
            if (subscriber == null || subscriber.isBroken()) {
                subscriber = NodeSubscriber.open(connections.connectPubSub(node), timeout);
                nodes.put(node, subscriber);
            }
        } finally {
            lock.unlock();
        }
        return subscriber.subscribe(channel, listener);
    }

    @Override
    public void close() {
        List<NodeSubscriber> open;
        lock.lock();
        try {
            closed = true;
            open = new ArrayList<>(nodes.values());
            nodes.clear();
        } finally {
            lock.unlock();
        }
        open.forEach(NodeSubscriber::close);
    }
}
