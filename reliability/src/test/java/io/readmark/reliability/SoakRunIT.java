package io.readmark.reliability;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code readmark soak} in under two minutes: two processor processes on their own restartable Kafka and persistent
 * Redis, the workload flowing, processor crashes, a Redis outage, bursts of bad records and a broker restart one after
 * another; then nothing lost, nothing extra, nothing double-counted, every bad record dead-lettered, and after Redis
 * lost everything the rebuild brings back exactly the same state with no drift.
 */
class SoakRunIT {

    @Test
    void shouldSurviveEveryFaultWithTheStateExactAndRebuildItAfterRedisLostEverything() {
        // Every first injection is due within 17 s (period + 25 %); one after another (a crash takes about 10 s, the
        // outages a little more than their length) they all begin well within the workload's 45 s.
        SoakConfig config = new SoakConfig(Duration.ofSeconds(45), Scenario.SEED, 2, Scenario.EVENTS_PER_SECOND,
                Duration.ofSeconds(12), Duration.ofSeconds(13), Duration.ofSeconds(5), Duration.ofSeconds(8), 150,
                Duration.ofSeconds(10), Duration.ofSeconds(6), Scenario.PARTITIONS);

        SoakReport report = SoakRun.run(config, System.out);

        report.print(System.out);
        assertThat(report.passed()).as("soak with seed %d; logs in %s", Scenario.SEED, report.workDir()).isTrue();
        assertThat(report.survived("processor-crash")).isGreaterThanOrEqualTo(1);
        assertThat(report.survived("redis-outage")).isGreaterThanOrEqualTo(1);
        assertThat(report.survived("poison-pills")).isGreaterThanOrEqualTo(1);
        assertThat(report.survived("broker-restart")).isGreaterThanOrEqualTo(1);
        assertThat(report.check().entriesExpected()).isGreaterThan(500);
        assertThat(report.badInputsTried()).isGreaterThanOrEqualTo(150);
        assertThat(report.deadLetters().deadLettered()).isEqualTo(report.badInputsTried());
        assertThat(report.deadLetters().exact()).as("%s", report.deadLetters()).isTrue();
        assertThat(report.redisLoss().rebuild().records()).isPositive();
        assertThat(report.redisLoss().check().exact()).as("after the rebuild: %s", report.redisLoss().check()).isTrue();
        assertThat(report.redisLoss().check().entriesExpected()).isEqualTo(report.check().entriesExpected());
        assertThat(report.redisLoss().reconcile().clean()).as("%s", report.redisLoss().reconcile()).isTrue();
        assertThat(report.redisLoss().reconcile().usersScanned()).isPositive();
    }
}
