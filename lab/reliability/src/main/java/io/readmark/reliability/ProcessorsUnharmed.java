package io.readmark.reliability;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What losing a node of Kafka or Redis must leave the processors as they were: the clients ride it out by themselves,
 * so a processor that exited meanwhile, or a stream thread that died of an exception and was replaced, is a fault
 * not survived even if the state ends exact. Taken before the fault: each running processor and where its log stood.
 */
final class ProcessorsUnharmed {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    /** What a processor logs when a stream thread dies of an exception and is replaced. */
    private static final String THREAD_FAILED = "stream thread failed";

    private final Map<ProcessorProcess, Integer> logBefore;

    private ProcessorsUnharmed(Map<ProcessorProcess, Integer> logBefore) {
        this.logBefore = logBefore;
    }

    /** Notes the processors running now and the length of each one's log. */
    static ProcessorsUnharmed before(Harness harness) {
        Map<ProcessorProcess, Integer> logBefore = new LinkedHashMap<>();
        harness.runningProcessors().forEach(processor -> logBefore.put(processor, processor.log().length()));
        return new ProcessorsUnharmed(logBefore);
    }

    /**
     * Returns once every processor noted is ready again.
     *
     * @throws IllegalStateException naming the processor that exited or whose stream thread failed during {@code fault}
     */
    void require(String fault) {
        for (Map.Entry<ProcessorProcess, Integer> noted : logBefore.entrySet()) {
            ProcessorProcess processor = noted.getKey();
            if (!processor.isAlive()) {
                throw new IllegalStateException(processor.name() + " exited during the " + fault + ":\n" + processor.logTail(40));
            }
            processor.awaitReady(READY_TIMEOUT);
            String since = processor.log().substring(noted.getValue());
            if (since.contains(THREAD_FAILED)) {
                throw new IllegalStateException("a stream thread of " + processor.name() + " failed during the " + fault + ":\n"
                        + since.lines().dropWhile(line -> !line.contains(THREAD_FAILED)).limit(7)
                        .reduce("", (a, b) -> a + b + "\n"));
            }
        }
    }
}
