package io.readmark.common.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ServiceMetricsTest {

    @Test
    void shouldTagEveryMeterWithTheApplicationAndBindTheJvmBasics() {
        // Given
        try (ServiceMetrics metrics = new ServiceMetrics("test-app")) {
            metrics.registry().counter("test.events").increment();

            // When
            String scrape = metrics.registry().scrape();

            // Then
            assertThat(scrape.lines().filter(line -> !line.startsWith("#")))
                    .allMatch(line -> line.contains("application=\"test-app\""))
                    .anyMatch(line -> line.startsWith("test_events_total{"))
                    .anyMatch(line -> line.startsWith("jvm_memory_used_bytes{"))
                    .anyMatch(line -> line.startsWith("jvm_gc_"))
                    .anyMatch(line -> line.startsWith("jvm_threads_live_threads{"))
                    .anyMatch(line -> line.startsWith("jvm_classes_loaded_classes{"))
                    .anyMatch(line -> line.startsWith("process_cpu_usage{"))
                    .anyMatch(line -> line.startsWith("process_uptime_seconds{"));
        }
    }
}
