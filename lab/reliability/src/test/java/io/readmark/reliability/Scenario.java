package io.readmark.reliability;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.Infrastructure;
import io.readmark.infra.TestInfrastructure;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What the scenario tests share: their sizes, where processor logs go, and the final exactness assertion. */
final class Scenario {

    /** {@code -Dreadmark.reliability.seed=…} reruns a failed scenario with the same workload and fault moments. */
    static final long SEED = Long.getLong("readmark.reliability.seed", System.nanoTime() % 1_000_000);
    static final int EVENTS_PER_SECOND = 150;
    static final int PARTITIONS = 3;
    static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(2);

    private Scenario() {
    }

    /** A harness on the JVM's shared Kafka and Redis. */
    static Harness onSharedInfrastructure(String label) {
        Infrastructure infra = TestInfrastructure.shared();
        return on(label, infra.kafkaBootstrapServers(), infra.redisUrl(), null);
    }

    /** A harness on the given Kafka and Redis; {@code redis} only if a fault may stop it. */
    static Harness on(String label, String bootstrapServers, String redisUrl, EmbeddedRedis redis) {
        RunNames names = RunNames.random(label);
        System.out.printf("%s: run %s, seed %d (rerun with -Dreadmark.reliability.seed=%d)%n", label, names.runId(), SEED, SEED);
        return new Harness(new Pipeline(bootstrapServers, redisUrl, names, PARTITIONS), WorkloadShape.small(EVENTS_PER_SECOND),
                SEED, Path.of("target", "reliability", names.runId()).toAbsolutePath(), null, redis);
    }

    /** Until the workload has produced {@code more} records beyond what it had produced so far. */
    static void awaitMoreEvents(WorkloadRunner workload, long more) {
        long target = workload.eventsProduced() + more;
        await().atMost(Duration.ofSeconds(60)).until(() -> workload.eventsProduced() >= target);
    }

    /** Stops the workload, waits until the pipeline applied it all, and requires Redis to hold exactly the model's state. */
    static CheckResult stopDrainAndCheck(Harness harness, WorkloadRunner workload) {
        workload.stop();
        Duration drained = harness.drain(DRAIN_TIMEOUT);
        CheckResult result = harness.check();
        System.out.printf("drained in %d ms after %d events: %s%n", drained.toMillis(), harness.eventsProduced(), result);
        assertThat(result.lost()).as("lost (seed %d, logs in %s): %s", SEED, harness.workDir(), result).isZero();
        assertThat(result.extra()).as("extra (seed %d, logs in %s): %s", SEED, harness.workDir(), result).isZero();
        assertThat(result.doubleCounted()).as("double-counted (seed %d, logs in %s): %s", SEED, harness.workDir(), result).isZero();
        assertThat(result.entriesExpected()).as("a workload that leaves unread state behind").isGreaterThan(500);
        return result;
    }
}
