package io.readmark.reliability;

import io.readmark.processor.StreamProcessor;

/**
 * The entry point of a {@link ProcessorProcess}: the stream processor, plus a watchdog that ends it once the JVM
 * that started it is gone. A shutdown hook in that JVM covers a normal exit; the watchdog covers a parent that
 * was killed and never ran its hooks, which would otherwise leave processors running on nobody's Kafka.
 */
public final class ChildProcessorMain {

    static final String PARENT_PID_PROPERTY = "readmark.parent.pid";

    private ChildProcessorMain() {
    }

    public static void main(String[] args) {
        long parent = Long.getLong(PARENT_PID_PROPERTY, -1);
        if (parent > 0) {
            Thread.ofPlatform().daemon().name("parent-watchdog").start(() -> {
                ProcessHandle.of(parent).ifPresent(handle -> handle.onExit().join());
                System.err.println("the process that started this processor (pid " + parent + ") is gone; stopping");
                System.exit(3);
            });
        }
        try {
            StreamProcessor.main(args);
        } catch (Throwable e) {
            // A failed start can leave a client's non-daemon thread behind; the process must end all the same.
            e.printStackTrace();
            System.exit(1);
        }
    }
}
