package io.readmark.reliability;

import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;
import io.readmark.store.RedisConnections;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Redis lost everything, and the first rebuild stops an eighth of the way into its first pass; a second rebuild must
 * still bring back exactly the state the model has. It does not yet: see docs/RELIABILITY.md, "Last runs".
 */
class InterruptedRebuildIT {

    @Test
    @Disabled("reproduces an open bug (2 runs in 3 fail): posts the first rebuild delivered and the second never removes; "
            + "enable with the fix, docs/RELIABILITY.md")
    void shouldBeExactAfterARebuildThatStoppedMidway(@TempDir Path stateDir) throws Exception {
        try (Harness harness = Scenario.onSharedInfrastructure("interrupted-rebuild")) {
            harness.startProcessor("processor");
            harness.awaitReady();
            harness.setUpWorkload();
            WorkloadRunner workload = harness.startWorkload();
            Scenario.awaitMoreEvents(workload, 6_000);
            Scenario.stopDrainAndCheck(harness, workload);

            ProcessorConfig config = harness.processorConfig(stateDir);
            try (RedisConnections redis = RedisConnections.connect(config.redisUrl(), config.redisTimeout(), false)) {
                redis.shared().sync().flushall();
            }
            Rebuild first = new Rebuild(config, Instant.now());
            assertThatThrownBy(() -> first.run((applied, total, pass) -> {
                if (applied > total / 8) first.cancel();
            })).isInstanceOf(Rebuild.CancelledException.class);
            new Rebuild(config, Instant.now().plusMillis(1)).run((applied, total, pass) -> { });

            CheckResult check = harness.check();
            assertThat(check.exact()).as("%s", check).isTrue();
        }
    }
}
