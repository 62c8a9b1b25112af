package io.readmark.reliability;

import io.readmark.common.config.Settings;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;

import java.time.Instant;
import java.util.Map;

/**
 * The entry point of a rebuild in its own process, so that it can be SIGKILLed midway ({@link RedisLossRecovery}):
 * {@link Rebuild} with the processor settings of its environment, printing its progress.
 */
public final class ChildRebuildMain {

    /** Printed as {@code rebuild applied <records> of <total>}, each time the rebuild reports progress. */
    static final String APPLIED = "rebuild applied ";

    private ChildRebuildMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ParentWatchdog.watch("rebuild");
        ProcessorConfig config = ProcessorConfig.from(Settings.of(Map.of(), System.getenv()));
        new Rebuild(config, Instant.now()).run((applied, total, pass) -> System.out.println(APPLIED + applied + " of " + total));
    }
}
