package io.readmark.bench;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.store.redis.RedisConnections;

import java.io.PrintStream;
import java.time.Duration;

/**
 * Seed 003's write path ({@code updateUnreadStatusAfterPublish}) on the same posts and followers as the ceiling:
 * SADD to the author's blogs once per post, then per follower SADD, HGET, HSET, EXPIRE ×2 — synchronous, one
 * thread, one round trip per command, keys as the seed names them. It cannot finish the workload in reasonable
 * time, so it runs for a fixed duration and its rate is what it delivered in that time.
 */
final class NaivePhase {

    record Result(long deliveries, double seconds, CpuUsage cpu) implements WriteMeasurement {
    }

    static final String PREFIX = "naive:";
    private static final long TTL_SECONDS = Duration.ofDays(30).toSeconds(); // the seed's USER_UNREAD_TTL
    private static final int CLOCK_EVERY = 64;

    private NaivePhase() {
    }

    static Result run(RedisConnections redis, RedisStats stats, Workload workload, Duration duration, PrintStream err) {
        PowerLawGraph graph = workload.graph();
        long durationNanos = duration.toNanos();
        long delivered = 0;
        try (RedisConnections.Connection connection = redis.open();
             ProgressBar bar = new ProgressBar(err, "naive", duration.toMillis(), "ms (time-boxed)")) {
            RedisClusterCommands<String, String> sync = connection.sync();
            CpuUsage.Meter cpu = CpuUsage.start(stats);
            long start = System.nanoTime();
            long elapsed = 0;
            posts:
            for (Workload.Post post : workload.posts()) {
                String author = Integer.toString(post.authorId());
                String blog = Long.toString(post.blogId());
                sync.sadd(PREFIX + "author:blogs:" + author, blog);
                for (int i = 0; i < graph.followerCount(post.authorId()); i++) {
                    deliver(sync, graph.follower(post.authorId(), i), author, blog);
                    delivered++;
                    if (delivered % CLOCK_EVERY == 0) {
                        elapsed = System.nanoTime() - start;
                        bar.update(elapsed / 1_000_000);
                        if (elapsed >= durationNanos) break posts;
                    }
                }
            }
            elapsed = System.nanoTime() - start;
            bar.update(elapsed / 1_000_000);
            return new Result(delivered, elapsed / 1e9, cpu.stop());
        }
    }

    /** The seed's loop body, command for command: read-modify-write of the counter, two TTL refreshes. */
    private static void deliver(RedisClusterCommands<String, String> sync, int follower, String author, String blog) {
        String unreadKey = PREFIX + "user:unread:" + follower + ":" + author;
        sync.sadd(unreadKey, blog);
        String countKey = PREFIX + "user:unread:count:" + follower;
        String countStr = sync.hget(countKey, author);
        int count = countStr == null ? 0 : Integer.parseInt(countStr);
        sync.hset(countKey, author, String.valueOf(count + 1));
        sync.expire(unreadKey, TTL_SECONDS);
        sync.expire(countKey, TTL_SECONDS);
    }
}
