package io.readmark.processor;

import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Properties;

/** TopologyTestDrivers as the topology tests run them: application {@value #APPLICATION_ID}, a state directory of their own. */
final class TestDrivers {

    static final String APPLICATION_ID = "topology-test";

    private TestDrivers() {
    }

    static TopologyTestDriver start(Topology topology) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try {
            props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory(APPLICATION_ID).toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TopologyTestDriver(topology, props);
    }
}
