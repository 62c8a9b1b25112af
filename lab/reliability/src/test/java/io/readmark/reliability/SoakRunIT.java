package io.readmark.reliability;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code readmark soak --prometheus true} with a 125 s workload: two processor processes on their own restartable
 * Kafka and persistent Redis, the workload flowing, processor crashes, a Redis outage, bursts of bad records, a
 * broker SIGKILLed and started again, a processor crash during a Redis outage and a restart of the view API serving 25 open unread
 * streams one after another, a real Prometheus scraping the processors on the deployed alert rules; each fault's
 * alert fires and resolves after it; then nothing lost, nothing extra, nothing double-counted, every stream's last
 * push equal to the final state, every bad record dead-lettered, and after Redis lost everything a rebuild is
 * SIGKILLed midway and the next one removes what it left and brings back exactly the same state with no drift.
 */
class SoakRunIT {

    @Test
    void shouldSurviveEveryFaultWithTheStateExactAndRebuildItAfterRedisLostEverything() {
        // Every first injection is due within 18 s (period + 25 %); one after another, each with its recovery and the
        // alert's 10 s window, they all begin within the 125 s.
        SoakConfig config = new SoakConfig(Duration.ofSeconds(125), Scenario.SEED, 2, Scenario.EVENTS_PER_SECOND,
                Duration.ofSeconds(12), Duration.ofSeconds(13), Duration.ofSeconds(5), Duration.ofSeconds(8), 150,
                Duration.ofSeconds(10), Duration.ofSeconds(6), Duration.ofSeconds(14), Duration.ofSeconds(9), Scenario.PARTITIONS, true,
                false, Duration.ofMinutes(5), Duration.ofMinutes(5));

        SoakReport report = SoakRun.run(config, System.out);

        report.print(System.out);
        assertThat(report.passed()).as("soak with seed %d; logs in %s", Scenario.SEED, report.workDir()).isTrue();
        assertThat(report.survived("processor-crash")).isGreaterThanOrEqualTo(1);
        assertThat(report.survived("redis-outage")).isGreaterThanOrEqualTo(1);
        assertThat(report.survived("poison-pills")).isGreaterThanOrEqualTo(1);
        assertThat(report.survived("broker-restart")).isGreaterThanOrEqualTo(1);
        assertThat(report.killedDuringFanout("broker-restart")).as("broker kills between a big-V post's chunks").isGreaterThanOrEqualTo(1);
        assertThat(report.survived("crash-during-redis-outage")).isGreaterThanOrEqualTo(1);
        assertThat(report.survived("view-api-restart")).isGreaterThanOrEqualTo(1);
        assertThat(report.pushes().users()).isEqualTo(25);
        assertThat(report.pushes().exact()).as("%s", report.pushes()).isTrue();
        assertThat(report.pushes().pushes()).isGreaterThan(report.pushes().streamsOpened());
        assertThat(report.pushes().streamsOpened()).as("reconnected after view-API restarts and Redis outages")
                .isGreaterThanOrEqualTo(3L * report.pushes().users());
        // A fault whose alert did not fire and resolve is not survived; so each count is the fault's.
        assertThat(report.alertsConfirmed()).containsOnlyKeys("ReadmarkProcessorDown", "ReadmarkRedisWriteRetries",
                "ReadmarkDeadLetters", "ReadmarkKafkaUnreachable", "ReadmarkProcessorWaitingForRedis");
        assertThat(report.alertsConfirmed().get("ReadmarkProcessorDown")).isEqualTo(report.survived("processor-crash"));
        assertThat(report.alertsConfirmed().get("ReadmarkKafkaUnreachable")).isEqualTo(report.survived("broker-restart"));
        assertThat(report.alertsConfirmed().get("ReadmarkRedisWriteRetries")).isEqualTo(report.survived("redis-outage"));
        assertThat(report.alertsConfirmed().get("ReadmarkProcessorWaitingForRedis")).isEqualTo(report.survived("crash-during-redis-outage"));
        assertThat(report.check().entriesExpected()).isGreaterThan(500);
        assertThat(report.noticesExpired()).as("broadcasts that expired while the check expected them gone").isPositive();
        assertThat(report.badInputsTried()).isGreaterThanOrEqualTo(150);
        assertThat(report.deadLetters().deadLettered()).isEqualTo(report.badInputsTried());
        assertThat(report.deadLetters().exact()).as("%s", report.deadLetters()).isTrue();
        assertThat(report.redisLoss().rebuild().records()).isPositive();
        assertThat(report.redisLoss().rebuild().leftoversRemoved()).as("the killed rebuild's leftovers removed").hasSize(1);
        assertThat(report.redisLoss().leftovers()).as("what any rebuild left in Kafka or on disk").isEmpty();
        assertThat(report.redisLoss().check().exact()).as("after the rebuild: %s", report.redisLoss().check()).isTrue();
        assertThat(report.redisLoss().check().entriesExpected()).isEqualTo(report.check().entriesExpected());
        assertThat(report.redisLoss().reconcile().clean()).as("%s", report.redisLoss().reconcile()).isTrue();
        assertThat(report.redisLoss().reconcile().usersScanned()).isPositive();
    }
}
