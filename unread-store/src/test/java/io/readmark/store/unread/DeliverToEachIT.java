package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.Range;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.EmbeddedRedisCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link UnreadWriter#deliverToEach} and {@link UnreadWriter#deleteForEach}: one script for many followers, what the
 * big-V worker and the inline fan-out send. That its state is exactly one delivery or delete per follower is
 * {@link UnreadModelIT}'s to show; here, how many scripts and commands it takes and that each stays in one slot of a
 * cluster.
 */
class DeliverToEachIT {

    @Test
    void shouldSendOneScriptPerHundredFollowers() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false);
             UnreadWriter writer = new UnreadWriter(connections.openBinary(), new UnreadKeys("each"), UnreadLimits.DEFAULTS, 1_000)) {
            RedisClusterCommands<String, String> sync = connections.shared().sync();
            sync.configResetstat();

            writer.deliverToEach(users(1, 250), 7, 42, 1_000);
            writer.awaitAcknowledged();

            assertThat(evalshaCalls(sync)).isEqualTo(3); // 100 + 100 + 50
            assertDeliveredToEach(sync, new UnreadKeys("each"), users(1, 250));
        }
    }

    @Test
    void shouldAskTheLiveKeysOfAScriptsFollowersAtOnceAndNotifyTheLiveOnes() {
        UnreadKeys keys = new UnreadKeys("live");
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false);
             UnreadWriter writer = new UnreadWriter(connections.openBinary(), keys, UnreadLimits.DEFAULTS, 1_000)) {
            RedisClusterCommands<String, String> sync = connections.shared().sync();
            sync.set(keys.live(17), "1");
            sync.set(keys.live(83), "1");
            sync.configResetstat();

            writer.deliverToEach(users(1, 100), 7, 42, 1_000);
            writer.awaitAcknowledged();

            String stats = sync.info("commandstats");
            assertThat(calls(stats, "mget")).as("one MGET for the script").isEqualTo(1);
            assertThat(calls(stats, "exists")).as("no EXISTS per follower").isZero();
            assertThat(calls(stats, "zrange")).as("under the cap, nothing is trimmed").isZero();
            assertThat(calls(stats, "publish") + calls(stats, "spublish")).as("the two live followers").isEqualTo(2);
            assertDeliveredToEach(sync, keys, users(1, 100));
        }
    }

    @Test
    void shouldDeleteForAHundredFollowersPerScriptAndNotifyTheLiveOnesThatHadItUnread() {
        UnreadKeys keys = new UnreadKeys("delete");
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false);
             UnreadWriter writer = new UnreadWriter(connections.openBinary(), keys, UnreadLimits.DEFAULTS, 1_000)) {
            RedisClusterCommands<String, String> sync = connections.shared().sync();
            writer.deliverToEach(users(1, 200), 7, 42, 1_000);
            writer.deliverToEach(users(1, 250), 7, 43, 2_000);
            writer.remove(5, 7, 42, 1_500); // user 5 read it before the delete: not unread any more
            writer.awaitAcknowledged();
            sync.set(keys.live(5), "1");
            sync.set(keys.live(17), "1");
            sync.set(keys.live(230), "1"); // was never delivered 42
            sync.configResetstat();

            writer.deleteForEach(users(1, 250), 7, 42, 3_000);
            writer.awaitAcknowledged();

            String stats = sync.info("commandstats");
            assertThat(calls(stats, "evalsha")).as("100 + 100 + 50").isEqualTo(3);
            assertThat(calls(stats, "exists")).as("no EXISTS per follower").isZero();
            assertThat(calls(stats, "mget")).as("one per script that removed it for someone; none for users 201-250").isEqualTo(2);
            assertThat(calls(stats, "publish") + calls(stats, "spublish")).as("only user 17: live and had it unread").isEqualTo(1);
            for (long user = 1; user <= 250; user++) {
                // A tombstone keeps its first second + 1: user 5's read, the others' delete.
                assertThat(sync.zscore(keys.z(user), "42")).as("user " + user + "'s tombstone").isEqualTo(user == 5 ? 2.0 : 4.0);
                assertThat(sync.hstrlen(keys.h(user), "7")).as("user " + user + ": one record of author 7").isEqualTo(12);
                assertThat(sync.hget(keys.h(user), "total")).as("user " + user).isEqualTo("1");
                assertThat(sync.zcount(keys.z(user), Range.create(Double.NEGATIVE_INFINITY, 0.0))).as("user " + user).isEqualTo(1);
            }
        }
    }

    @Test
    void shouldCountEachFollowerOfAScriptAsAChangeWhenBoundingWhatWaits() {
        Duration pause = Duration.ofMillis(600);
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             RedisConnections connections = RedisConnections.connect(redis.url(), Duration.ofSeconds(5), false);
             UnreadWriter writer = new UnreadWriter(connections.openBinary(), new UnreadKeys("bound"), UnreadLimits.DEFAULTS, 1_000)) {
            RedisClusterCommands<String, String> sync = connections.shared().sync();
            writer.deliverToEach(users(1, 100), 7, 42, 1_000);
            writer.deliverToEach(users(101, 200), 7, 42, 1_000);
            sync.clientPause(pause.toMillis()); // Redis answers nothing before the pause ends
            long start = System.nanoTime();

            writer.awaitUnansweredAtMost(100); // the newest script is 100 changes: the one before it is waited for

            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited for Redis").isGreaterThan(pause.dividedBy(2));
            assertDeliveredToEach(sync, new UnreadKeys("bound"), users(1, 100));
            start = System.nanoTime();
            writer.awaitUnansweredAtMost(200); // both scripts may wait: nothing to wait for
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(pause.dividedBy(2));
            writer.awaitAcknowledged();
            assertDeliveredToEach(sync, new UnreadKeys("bound"), users(1, 200));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // a script across slots fails with CROSSSLOT, which the writer retries
    void shouldSendOneScriptPerSlotOfACluster() {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(3);
             RedisConnections connections = RedisConnections.connect(cluster.url(), Duration.ofSeconds(5), false);
             UnreadWriter writer = new UnreadWriter(connections.openBinary(), new UnreadKeys("slots"), UnreadLimits.DEFAULTS, 1_000)) {
            // Users spread over the slots of three masters, and 100 more who share one slot: {u:...} tags differ,
            // but users whose tags hash alike may share a script, the others each go alone.
            List<Long> users = new ArrayList<>(users(1, 300));
            int sharedSlot = SlotHash.getSlot(new UnreadKeys("slots").countsBytes(1));
            for (long user = 1_000; users.size() < 400; user++) {
                if (SlotHash.getSlot(new UnreadKeys("slots").countsBytes(user)) == sharedSlot) users.add(user);
            }
            // One script per slot, and a second for a slot past 100 users.
            long scripts = users.stream().collect(Collectors.groupingBy(user -> SlotHash.getSlot(new UnreadKeys("slots").countsBytes(user)),
                    Collectors.counting())).values().stream().mapToLong(count -> (count + 99) / 100).sum();
            List<RedisConnections> masters = new ArrayList<>();
            try {
                for (int port : cluster.ports()) {
                    masters.add(RedisConnections.connect("redis://127.0.0.1:" + port, Duration.ofSeconds(5), false));
                }
                masters.forEach(master -> master.shared().sync().configResetstat());

                writer.deliverToEach(users, 7, 42, 1_000);
                writer.awaitAcknowledged();

                assertThat(masters.stream().mapToLong(master -> evalshaCalls(master.shared().sync())).sum())
                        .as("one script per slot").isEqualTo(scripts);
                assertDeliveredToEach(connections.shared().sync(), new UnreadKeys("slots"), users);
            } finally {
                masters.forEach(RedisConnections::close);
            }
        }
    }

    private static List<Long> users(long first, long last) {
        return LongStream.rangeClosed(first, last).boxed().toList();
    }

    private static void assertDeliveredToEach(RedisClusterCommands<String, String> sync, UnreadKeys keys, List<Long> users) {
        for (long user : users) {
            assertThat(sync.zscore(keys.z(user), "42")).as("user " + user).isEqualTo(-1.0);
            assertThat(sync.hstrlen(keys.h(user), "7")).as("user " + user + ": one record of author 7").isEqualTo(12);
            assertThat(sync.hget(keys.h(user), "total")).as("user " + user).isEqualTo("1");
        }
    }

    private static long evalshaCalls(RedisClusterCommands<String, String> sync) {
        return calls(sync.info("commandstats"), "evalsha");
    }

    private static long calls(String commandstats, String command) {
        Matcher calls = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(commandstats);
        return calls.find() ? Long.parseLong(calls.group(1)) : 0;
    }
}
