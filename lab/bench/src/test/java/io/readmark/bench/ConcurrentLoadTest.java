package io.readmark.bench;

import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ConcurrentLoadTest {

    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @Test
    void shouldExtendTheWindowUntilEnoughRequestsCompletedWhenEachIsSlowerThanIt() throws Exception {
        // Each call takes 200 ms, the window 50 ms: without the extension nothing completes in it.
        ConcurrentLoad.ClientFactory slow = () -> new ConcurrentLoad.Client() {
            @Override
            public void call(long userId) throws InterruptedException {
                Thread.sleep(200);
            }

            @Override
            public void close() {
            }
        };

        ConcurrentLoad.Result result = ConcurrentLoad.run("slow", 1, Duration.ZERO, Duration.ofMillis(50), 10, 1, slow, QUIET);

        assertThat(result.requests()).isEqualTo(ConcurrentLoad.MIN_REQUESTS);
        assertThat(result.seconds()).isGreaterThanOrEqualTo(0.6);
        assertThat(result.perSecond()).isCloseTo(5.0, within(1.5));
    }

    @Test
    void shouldKeepTheWindowWhenRequestsAreFast() throws Exception {
        ConcurrentLoad.ClientFactory fast = () -> new ConcurrentLoad.Client() {
            @Override
            public void call(long userId) {
            }

            @Override
            public void close() {
            }
        };

        ConcurrentLoad.Result result = ConcurrentLoad.run("fast", 2, Duration.ZERO, Duration.ofMillis(100), 10, 1, fast, QUIET);

        assertThat(result.seconds()).isEqualTo(0.1);
        assertThat(result.requests()).isGreaterThan(ConcurrentLoad.MIN_REQUESTS);
    }
}
