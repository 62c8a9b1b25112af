package io.readmark.reliability;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code readmark soak} in under a minute and a half: two processor processes on its own Kafka and persistent
 * Redis, the workload flowing, processor crashes and a Redis outage one after another; then nothing lost, nothing
 * extra, nothing double-counted.
 */
class SoakRunIT {

    @Test
    void shouldSurviveCrashesAndRedisOutagesWithTheStateExact() {
        SoakConfig config = new SoakConfig(Duration.ofSeconds(45), Scenario.SEED, 2, Scenario.EVENTS_PER_SECOND,
                Duration.ofSeconds(15), Duration.ofSeconds(25), Duration.ofSeconds(8), Scenario.PARTITIONS);

        SoakReport report = SoakRun.run(config, System.out);

        report.print(System.out);
        assertThat(report.passed()).as("soak with seed %d; logs in %s", Scenario.SEED, report.workDir()).isTrue();
        assertThat(report.survived("processor-crash")).isGreaterThanOrEqualTo(1);
        assertThat(report.survived("redis-outage")).isGreaterThanOrEqualTo(1);
        assertThat(report.check().entriesExpected()).isGreaterThan(500);
    }
}
