package io.readmark.reliability;

/**
 * Ends a {@link ChildJvm} once the JVM that started it is gone. A shutdown hook in that JVM covers a normal exit; the
 * watchdog covers a parent that was killed and never ran its hooks, which would otherwise leave children running on
 * nobody's behalf.
 */
final class ParentWatchdog {

    static final String PARENT_PID_PROPERTY = "readmark.parent.pid";

    private ParentWatchdog() {
    }

    static void watch(String child) {
        long parent = Long.getLong(PARENT_PID_PROPERTY, -1);
        if (parent <= 0) return;
        Thread.ofPlatform().daemon().name("parent-watchdog").start(() -> {
            ProcessHandle.of(parent).ifPresent(handle -> handle.onExit().join());
            System.err.println("the process that started this " + child + " (pid " + parent + ") is gone; stopping");
            System.exit(3);
        });
    }
}
