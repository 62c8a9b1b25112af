package io.readmark.processor.fanout;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.streams.processor.api.ProcessorContext;

import java.util.Map;

/**
 * Big-V fan-out metrics, registered with Kafka Streams (so they appear in {@code KafkaStreams#metrics()} and
 * JMX): {@code <name>-total} and {@code <name>-rate} per stream thread, in group {@code readmark-fanout}.
 * They count followers, not records, which Kafka Streams' own rate/total sensors would count.
 */
public final class FanoutMetrics {

    static final String GROUP = "readmark-fanout";

    private FanoutMetrics() {
    }

    public static Sensor followers(ProcessorContext<?, ?> context, String name, String description) {
        String thread = Thread.currentThread().getName();
        Sensor sensor = context.metrics().addSensor(GROUP + "-" + name + "-" + thread, Sensor.RecordingLevel.INFO);
        if (!sensor.hasMetrics()) {
            Map<String, String> tags = Map.of("thread-id", thread);
            sensor.add(new MetricName(name + "-total", GROUP, description + ", in all", tags), new CumulativeSum());
            sensor.add(new MetricName(name + "-rate", GROUP, description + ", per second", tags), new Rate());
        }
        return sensor;
    }
}
