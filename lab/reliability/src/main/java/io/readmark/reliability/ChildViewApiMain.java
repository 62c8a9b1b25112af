package io.readmark.reliability;

import io.readmark.view.ViewApi;

/** The entry point of the soak's view API in a process of its own ({@link PushWatch}), ended once the JVM that started it is gone. */
public final class ChildViewApiMain {

    private ChildViewApiMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ParentWatchdog.watch("view API");
        ViewApi.main(args);
    }
}
