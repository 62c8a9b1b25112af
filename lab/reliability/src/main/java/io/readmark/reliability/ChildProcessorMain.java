package io.readmark.reliability;

import io.readmark.processor.StreamProcessor;

/** The entry point of a {@link ProcessorProcess}: the stream processor, ended once the JVM that started it is gone. */
public final class ChildProcessorMain {

    private ChildProcessorMain() {
    }

    public static void main(String[] args) {
        ParentWatchdog.watch("processor");
        try {
            StreamProcessor.main(args);
        } catch (Throwable e) {
            // A failed start can leave a client's non-daemon thread behind; the process must end all the same.
            e.printStackTrace();
            System.exit(1);
        }
    }
}
