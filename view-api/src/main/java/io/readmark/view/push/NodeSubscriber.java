package io.readmark.view.push;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.RedisPubSubListener;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.readmark.store.redis.RedisVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One Pub/Sub connection to one Redis node and the channels subscribed on it: SSUBSCRIBE where the node has sharded
 * Pub/Sub (7.0+), SUBSCRIBE before, the same test {@code notify.lua} makes to choose SPUBLISH or PUBLISH. The connection
 * does not reconnect: once it breaks, or Redis drops a channel by itself (its slot moved to another node), the
 * listeners hear {@link ChangeFeed.Listener#lost} and the next subscription opens a new connection.
 */
final class NodeSubscriber extends RedisPubSubAdapter<String, String> implements RedisConnectionStateListener {

    private static final Logger log = LoggerFactory.getLogger(NodeSubscriber.class);

    private final StatefulRedisPubSubConnection<String, String> connection;
    private final boolean sharded;
    private final Duration timeout;
    private final Map<String, Set<ChangeFeed.Listener>> listeners = new HashMap<>(); // guarded by this
    private final Map<String, CompletableFuture<Void>> subscribing = new HashMap<>(); // guarded by this
    /** Unsubscribes sent and not yet confirmed, per channel: any other unsubscribe comes from Redis. */
    private final Map<String, Integer> unsubscribing = new HashMap<>(); // guarded by this
    private volatile boolean broken;

    private NodeSubscriber(StatefulRedisPubSubConnection<String, String> connection, boolean sharded, Duration timeout) {
        this.connection = connection;
        this.sharded = sharded;
        this.timeout = timeout;
    }

    static NodeSubscriber open(StatefulRedisPubSubConnection<String, String> connection, Duration timeout) {
        try {
            NodeSubscriber subscriber = new NodeSubscriber(connection,
                    RedisVersion.hasShardedPubSub(connection.sync().info("server")), timeout);
            connection.addListener((RedisConnectionStateListener) subscriber);
            connection.addListener((RedisPubSubListener<String, String>) subscriber);
            return subscriber;
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    boolean isBroken() {
        return broken || !connection.isOpen();
    }

    ChangeFeed.Subscription subscribe(String channel, ChangeFeed.Listener listener) {
        CompletableFuture<Void> confirmed;
        synchronized (this) {
            if (isBroken()) throw new RedisConnectionException("the Pub/Sub connection to Redis broke");
            listeners.computeIfAbsent(channel, ignored -> new LinkedHashSet<>()).add(listener);
            confirmed = subscribing.computeIfAbsent(channel, ignored -> (sharded
                    ? connection.async().ssubscribe(channel) : connection.async().subscribe(channel)).toCompletableFuture());
        }
        ChangeFeed.Subscription subscription = () -> unsubscribe(channel, listener);
        try {
            confirmed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            subscription.cancel();
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            if (e.getCause() instanceof RedisException redis) throw redis;
            throw new RedisCommandTimeoutException("Redis did not confirm the subscription within " + timeout.toMillis() + " ms");
        }
        return subscription;
    }

    private synchronized void unsubscribe(String channel, ChangeFeed.Listener listener) {
        Set<ChangeFeed.Listener> current = listeners.get(channel);
        if (current == null || !current.remove(listener) || !current.isEmpty()) return;
        listeners.remove(channel);
        subscribing.remove(channel);
        if (isBroken()) return;
        unsubscribing.merge(channel, 1, Integer::sum);
        if (sharded) {
            connection.async().sunsubscribe(channel);
        } else {
            connection.async().unsubscribe(channel);
        }
    }

    @Override
    public void message(String channel, String message) {
        forEachListener(channel, listener -> listener.changed(message));
    }

    @Override
    public void smessage(String channel, String message) {
        forEachListener(channel, listener -> listener.changed(message));
    }

    @Override
    public void unsubscribed(String channel, long count) {
        droppedByRedis(channel);
    }

    @Override
    public void sunsubscribed(String channel, long count) {
        droppedByRedis(channel);
    }

    /** An unsubscribe this class did not send: Redis moved the channel's slot, its listeners must start over. */
    private void droppedByRedis(String channel) {
        List<ChangeFeed.Listener> lost;
        synchronized (this) {
            Integer expected = unsubscribing.get(channel);
            if (expected != null) {
                if (expected == 1) unsubscribing.remove(channel); else unsubscribing.put(channel, expected - 1);
                return;
            }
            Set<ChangeFeed.Listener> current = listeners.remove(channel);
            subscribing.remove(channel);
            if (current == null) return;
            lost = new ArrayList<>(current);
        }
        log.atInfo().addKeyValue("channel", channel).log("Redis ended a change subscription; its streams close to start over");
        lost.forEach(ChangeFeed.Listener::lost);
    }

    @Override
    public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
        List<ChangeFeed.Listener> lost = new ArrayList<>();
        synchronized (this) {
            if (broken) return;
            broken = true;
            listeners.values().forEach(lost::addAll);
            listeners.clear();
            subscribing.clear();
        }
        if (!lost.isEmpty()) {
            log.atWarn().addKeyValue("streams", lost.size()).log("the Pub/Sub connection to Redis broke; its streams close to start over");
        }
        lost.forEach(ChangeFeed.Listener::lost);
        connection.closeAsync();
    }

    private void forEachListener(String channel, Consumer<ChangeFeed.Listener> action) {
        List<ChangeFeed.Listener> current;
        synchronized (this) {
            Set<ChangeFeed.Listener> subscribed = listeners.get(channel);
            if (subscribed == null) return;
            current = new ArrayList<>(subscribed);
        }
        current.forEach(action);
    }

    void close() {
        connection.close();
        onRedisDisconnected(null);
    }
}
