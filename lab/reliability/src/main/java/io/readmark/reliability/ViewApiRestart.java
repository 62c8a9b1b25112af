package io.readmark.reliability;

import java.time.Duration;
import java.util.Random;

/**
 * The view API that serves the soak's open streams is SIGKILLed with them open and started again on the same port, as
 * a crashed instance that its supervisor restarts: every client reconnects and, at the end, must still show the final
 * state.
 * Returns once every client has opened a new stream.
 */
public final class ViewApiRestart implements Fault {

    private static final Duration RECONNECT_TIMEOUT = Duration.ofSeconds(30);

    private final PushWatch push;

    public ViewApiRestart(PushWatch push) {
        this.push = push;
    }

    @Override
    public String name() {
        return "view-api-restart";
    }

    @Override
    public void inject(Harness harness, Random random) {
        long before = push.connections();
        push.restartView();
        Poll.until(() -> push.connections() >= before + push.users(), RECONNECT_TIMEOUT, Duration.ofMillis(100),
                () -> "the stream clients did not reconnect: " + (push.connections() - before) + " of " + push.users());
    }
}
