package io.readmark.processor.fanout;

import io.readmark.store.RedisConnections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Times a PING on a connection of its own every interval and tells {@link AdaptiveRate}. On Redis Cluster the PING
 * goes to one node: a sample of the cluster's load, where the fan-out spreads its writes over every master.
 */
public final class RedisLatencySampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisLatencySampler.class);
    public static final Duration INTERVAL = Duration.ofMillis(20);

    private final RedisConnections.Connection connection;
    private final AdaptiveRate rate;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("fanout-rate").daemon().factory());

    private RedisLatencySampler(RedisConnections.Connection connection, AdaptiveRate rate) {
        this.connection = connection;
        this.rate = rate;
    }

    public static RedisLatencySampler start(RedisConnections redis, AdaptiveRate rate) {
        RedisLatencySampler sampler = new RedisLatencySampler(redis.open(), rate);
        sampler.timer.scheduleWithFixedDelay(sampler::sample, 0, INTERVAL.toNanos(), TimeUnit.NANOSECONDS);
        return sampler;
    }

    private void sample() {
        long start = System.nanoTime();
        try {
            connection.sync().ping();
            long end = System.nanoTime();
            rate.observe(end - start, end);
        } catch (RuntimeException e) {
            log.atDebug().addKeyValue("error", e.toString()).log("fan-out rate: PING failed; backing off");
            rate.observeFailure();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.close();
    }
}
