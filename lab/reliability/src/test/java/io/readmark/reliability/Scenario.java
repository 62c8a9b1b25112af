package io.readmark.reliability;

import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.Infrastructure;
import io.readmark.infra.TestInfrastructure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What the scenario tests share: their sizes, where processor logs go, and the final exactness assertion. */
final class Scenario {

    /** {@code -Dreadmark.reliability.seed=…} reruns a failed scenario with the same workload and fault moments. */
    static final long SEED = Long.getLong("readmark.reliability.seed", System.nanoTime() % 1_000_000);
    static final int EVENTS_PER_SECOND = 150;
    static final int PARTITIONS = 3;
    static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(2);
    /** Users with an open unread stream in the scenarios that watch pushes: every thirtieth. */
    static final List<Long> WATCHED_USERS = LongStream.rangeClosed(1, 300).filter(user -> user % 30 == 0).boxed().toList();
    private static final Duration PUSH_SETTLE = Duration.ofSeconds(30);

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

    /** Unread streams of {@link #WATCHED_USERS} on a view API of their own on {@code redisUrl}, for the harness's run. */
    static PushWatch watchStreams(Harness harness, String redisUrl) {
        return PushWatch.start(redisUrl, harness.pipeline().names().redisPrefix(), WATCHED_USERS, harness.workDir());
    }

    /**
     * Readies the processors, produces the follower graph, starts the producer API's clients ({@code null}: none) and
     * the workload, and returns once a few hundred events went by: everything busy before a fault.
     */
    static WorkloadRunner startBusy(Harness harness, IngestLoad load) {
        harness.awaitReady();
        harness.setUpWorkload();
        if (load != null) load.startServing();
        WorkloadRunner workload = harness.startWorkload();
        awaitMoreEvents(workload, 400);
        return workload;
    }

    /** Until the workload has produced {@code more} records beyond what it had produced so far. */
    static void awaitMoreEvents(WorkloadRunner workload, long more) {
        long target = workload.eventsProduced() + more;
        await().atMost(Duration.ofSeconds(60)).until(() -> workload.eventsProduced() >= target);
    }

    /** Lets a fault last {@code fault}, and then until {@code answered503Since}, given the nanos it began at, holds. */
    static void letLast(Duration fault, LongPredicate answered503Since) {
        long began = System.nanoTime();
        await().atMost(fault.multipliedBy(4)).until(() -> System.nanoTime() - began >= fault.toNanos() && answered503Since.test(began));
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

    /** As {@link #stopDrainAndCheck(Harness, WorkloadRunner)}, and requires every stream's last push to be the final state. */
    static CheckResult stopDrainAndCheck(Harness harness, WorkloadRunner workload, PushWatch push) {
        CheckResult result = stopDrainAndCheck(harness, workload);
        assertThat(push.awaitFinal(user -> PushWatch.Counts.expected(harness.expected(), user), PUSH_SETTLE))
                .as("streams whose last push differs from the final state").isEmpty();
        return result;
    }
}
