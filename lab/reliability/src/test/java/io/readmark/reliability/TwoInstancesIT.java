package io.readmark.reliability;

import io.readmark.infra.PrometheusText;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two processor processes of one application share the partitions; one is SIGKILLed mid-run. Once its session
 * times out the survivor owns every partition of both applications, processes the rest of the workload, and the
 * state ends exactly the model's.
 */
class TwoInstancesIT {

    private static final int FANOUT_PARTITIONS = Scenario.PARTITIONS;
    private static final Duration TAKE_OVER = Duration.ofSeconds(60);

    @Test
    void shouldHandAKilledInstancesPartitionsToTheSurvivorAndEndExact() {
        try (Harness harness = Scenario.onSharedInfrastructure("two")) {
            ProcessorProcess survivor = harness.startProcessor("survivor");
            ProcessorProcess victim = harness.startProcessor("victim");
            harness.awaitReady();
            String app = harness.pipeline().names().applicationId();
            Pipeline pipeline = harness.pipeline();
            // The four event topics (notice events have as many partitions as blog events) and the internal author topic.
            int mainPartitions = pipeline.partitions() + pipeline.followPartitions() + pipeline.readPartitions()
                    + pipeline.partitions() + pipeline.authorPartitions();
            await("both instances hold partitions of both applications").atMost(TAKE_OVER).until(() ->
                    assigned(survivor, app, false) > 0 && assigned(victim, app, false) > 0
                            && assigned(survivor, app, false) + assigned(victim, app, false) == mainPartitions
                            && assigned(survivor, app, true) + assigned(victim, app, true) == FANOUT_PARTITIONS);

            harness.setUpWorkload();
            WorkloadRunner workload = harness.startWorkload();
            Scenario.awaitMoreEvents(workload, 1_500);
            double deliveredBeforeTheKill = deliveries(survivor);
            victim.kill();

            await("the survivor owns every partition").atMost(TAKE_OVER).until(() ->
                    assigned(survivor, app, false) == mainPartitions && assigned(survivor, app, true) == FANOUT_PARTITIONS);
            Scenario.awaitMoreEvents(workload, 1_500);
            Scenario.stopDrainAndCheck(harness, workload);

            assertThat(deliveries(survivor)).as("the survivor went on delivering").isGreaterThan(deliveredBeforeTheKill);
            assertThat(victim.isAlive()).isFalse();
            assertThat(survivor.starts()).isEqualTo(1);
        }
    }

    /** Partitions assigned to the process's consumers of the main application, or of the fan-out worker. */
    private static int assigned(ProcessorProcess processor, String applicationId, boolean fanout) {
        String scrape = processor.get("/metrics").body();
        String fanoutClients = "client_id=\"" + applicationId + "-fanout-";
        return (int) PrometheusText.samples(scrape, "kafka_consumer_coordinator_assigned_partitions").stream()
                .filter(sample -> sample.contains(fanoutClients) == fanout)
                .mapToDouble(PrometheusText::value).sum();
    }

    private static double deliveries(ProcessorProcess processor) {
        return PrometheusText.sum(processor.get("/metrics").body(), "readmark_deliveries_total");
    }
}
