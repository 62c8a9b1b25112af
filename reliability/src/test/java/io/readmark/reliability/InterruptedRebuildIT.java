package io.readmark.reliability;

import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;
import io.readmark.store.RedisConnections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Redis lost everything, and a first rebuild stops partway, leaving the writes of the events it had processed in its
 * own order; the rebuild after it processes every event in another order and must still bring back exactly the state
 * the model has. A post the first delivered to a follower before the delete reached them, whose delete the second
 * processed before that follow (the events of one author sit on several partitions), used to stay unread.
 */
class InterruptedRebuildIT {

    /** Where the first rebuild stops. */
    @FunctionalInterface
    private interface StopAt {
        boolean reached(long applied, long total, String pass);
    }

    private static final Map<String, StopAt> STOPS = new LinkedHashMap<>();

    static {
        STOPS.put("an eighth of the records in (follows and posts)", (applied, total, pass) -> 8 * applied > total);
        STOPS.put("three eighths of the records in (follows and posts)", (applied, total, pass) -> 8 * applied > 3 * total);
        STOPS.put("as the reads begin", (applied, total, pass) -> pass.equals(Rebuild.READ_PASS));
    }

    @Test
    void shouldBeExactAfterARebuildThatStoppedPartway(@TempDir Path stateDir) throws Exception {
        try (Harness harness = Scenario.onSharedInfrastructure("interrupted-rebuild")) {
            harness.startProcessor("processor");
            harness.awaitReady();
            harness.setUpWorkload();
            WorkloadRunner workload = harness.startWorkload();
            Scenario.awaitMoreEvents(workload, 6_000);
            Scenario.stopDrainAndCheck(harness, workload);
            ProcessorConfig config = harness.processorConfig(stateDir);

            Instant stamp = Instant.now();
            for (Map.Entry<String, StopAt> stop : STOPS.entrySet()) {
                try (RedisConnections redis = RedisConnections.connect(config.redisUrl(), config.redisTimeout(), false)) {
                    redis.shared().sync().flushall();
                }
                Rebuild stopped = new Rebuild(config, stamp);
                assertThatThrownBy(() -> stopped.run((applied, total, pass) -> {
                    if (stop.getValue().reached(applied, total, pass)) stopped.cancel();
                })).as("stopped %s", stop.getKey()).isInstanceOf(Rebuild.CancelledException.class);
                new Rebuild(config, stamp.plusMillis(1)).run((applied, total, pass) -> { });
                stamp = stamp.plusMillis(2);

                CheckResult check = harness.check();
                assertThat(check.exact()).as("a rebuild stopped %s, then a complete one: %s", stop.getKey(), check).isTrue();
            }
        }
    }
}
