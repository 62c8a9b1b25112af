package io.readmark.bench;

import io.readmark.common.config.Settings;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.StreamProcessor;

import java.time.Duration;
import java.util.Map;

/**
 * The stream processor under test, started anew for each run with that run's {@code READMARK_REDIS_WAIT_REPLICAS}.
 * Every start has the same application id and state folder, so it resumes from the offsets and the state the one
 * before it committed when it stopped.
 */
final class RestartingProcessor implements AutoCloseable {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

    private final Settings settings;
    private StreamProcessor running;

    RestartingProcessor(Settings settings) {
        this.settings = settings;
    }

    /** Stops the running processor, if any, and starts one that waits for {@code waitReplicas} replicas. */
    void start(int waitReplicas) throws InterruptedException {
        close();
        running = StreamProcessor.start(ProcessorConfig.from(
                settings.withOverrides(Map.of(ProcessorConfig.WAIT_REPLICAS, Integer.toString(waitReplicas)))));
        if (!running.awaitRunning(STARTUP_TIMEOUT)) {
            throw new IllegalStateException("stream processor not RUNNING after " + STARTUP_TIMEOUT.toSeconds() + " s (state "
                    + running.state() + ")");
        }
    }

    @Override
    public void close() {
        if (running != null) running.close();
        running = null;
    }
}
