package io.readmark.store;

import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.readmark.infra.TestInfrastructure;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A real Redis for one test class, with its own key prefix so tests never see each other's keys. */
final class RedisFixture implements AutoCloseable {

    final RedisConnections redis = RedisConnections.connect(TestInfrastructure.shared().redisUrl(), Duration.ofSeconds(5), false);
    final UnreadKeys keys = new UnreadKeys("test-" + UUID.randomUUID());
    final RedisClusterCommands<String, String> sync = redis.shared().sync();

    UnreadWriter writer(UnreadLimits limits) {
        return new UnreadWriter(redis.open(), keys, limits, 1000);
    }

    UnreadReader reader() {
        return new UnreadReader(redis.shared(), keys);
    }

    /** DESIGN invariants 1 and 2 for one user, read straight from Redis. */
    void assertInvariants(long userId) {
        Map<String, String> counts = sync.hgetall(keys.counts(userId));
        Map<String, Long> cardinalities = new HashMap<>();
        String unreadPrefix = keys.unread(userId, 0).replaceAll("0$", "");
        ScanIterator<String> scan = ScanIterator.scan(sync, ScanArgs.Builder.matches(unreadPrefix.replace("{", "\\{").replace("}", "\\}") + "*"));
        while (scan.hasNext()) {
            String key = scan.next();
            cardinalities.put(key.substring(unreadPrefix.length()), sync.zcard(key));
        }
        long sum = 0;
        for (Map.Entry<String, Long> entry : cardinalities.entrySet()) {
            assertThat(entry.getValue()).as("empty sets are deleted").isPositive();
            assertThat(counts.get(entry.getKey())).as("counts[%s] == ZCARD", entry.getKey()).isEqualTo(Long.toString(entry.getValue()));
            sum += entry.getValue();
        }
        Map<String, String> authorFields = new HashMap<>(counts);
        String total = authorFields.remove("total");
        assertThat(authorFields.keySet()).as("no count field without unread entries").isEqualTo(cardinalities.keySet());
        assertThat(total == null ? 0 : Long.parseLong(total)).as("total == sum of counts").isEqualTo(sum);
        if (total != null) assertThat(Long.parseLong(total)).as("no zero or negative total left behind").isPositive();
    }

    @Override
    public void close() {
        redis.close();
    }
}
