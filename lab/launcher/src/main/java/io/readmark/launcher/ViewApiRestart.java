package io.readmark.launcher;

import io.readmark.common.http.JsonHttpServer;
import io.readmark.view.ViewApi;
import io.readmark.view.ViewApiConfig;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/** Starting a view API again on the port one just closed, so that its clients reconnect to the address they know. */
public final class ViewApiRestart {

    /** Long enough for the closed server's port to be released, short enough to fail a port someone else took. */
    private static final Duration BIND_RETRIES = Duration.ofSeconds(10);
    private static final Duration BETWEEN_BINDS = Duration.ofMillis(50);

    private ViewApiRestart() {
    }

    /**
     * Starts a view API on {@code config}'s port, retrying the bind while the port is not free yet: the instance closed
     * just before may still hold it for a moment.
     *
     * @throws UncheckedIOException if the port stays taken
     */
    public static ViewApi onSamePort(ViewApiConfig config, Consumer<JsonHttpServer> moreRoutes) {
        long end = System.nanoTime() + BIND_RETRIES.toNanos();
        while (true) {
            try {
                return ViewApi.start(config, moreRoutes);
            } catch (UncheckedIOException e) { // the port not free yet
                if (System.nanoTime() > end) throw e;
                LockSupport.parkNanos(BETWEEN_BINDS.toNanos());
            }
        }
    }
}
