package io.readmark.reliability;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One processor process (main and fan-out) SIGKILLed again and again at random moments while the mixed workload
 * flows, and started again each time, once with its state dir wiped so every store is restored from its changelog.
 * Offsets committed only after Redis acknowledged, plus idempotent scripts, must leave exactly the model's state.
 */
class CrashExactnessIT {

    private static final int CRASHES = 4;

    @Test
    void shouldEndExactAfterRepeatedKillsWhileEventsFlow() {
        Random random = new Random(Scenario.SEED);
        try (Harness harness = Scenario.onSharedInfrastructure("crash")) {
            ProcessorProcess processor = harness.startProcessor("processor");
            harness.awaitReady();
            harness.setUpWorkload();
            WorkloadRunner workload = harness.startWorkload();

            ProcessorCrash crash = new ProcessorCrash(3); // the third crash also loses the state dir
            for (int i = 0; i < CRASHES; i++) {
                Scenario.awaitMoreEvents(workload, 300 + random.nextInt(1_200));
                crash.inject(harness, random);
            }
            Scenario.awaitMoreEvents(workload, 600);

            Scenario.stopDrainAndCheck(harness, workload);
            assertThat(crash.crashes()).isEqualTo(CRASHES);
            assertThat(crash.wipes()).isEqualTo(1);
            assertThat(processor.starts()).isEqualTo(CRASHES + 1);
        }
    }
}
