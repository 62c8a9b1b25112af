package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class LocalPortsTest {

    @Test
    void freePortsAreDistinctAndBindable() {
        var ports = LocalPorts.freePorts(5);
        assertThat(ports).hasSize(5).doesNotHaveDuplicates().allSatisfy(p -> assertThat(LocalPorts.isFree(p)).isTrue());
    }

    @Test
    void aListeningPortIsReportedTakenWithAClearMessage() throws Exception {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = socket.getLocalPort();
            assertThat(LocalPorts.isFree(port)).isFalse();
            assertThatThrownBy(() -> LocalPorts.requireFree(port, "Thing"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("Thing cannot start: port " + port + " on 127.0.0.1 is already in use by another process");
        }
    }

    @Test
    void aPortWithAFreeOffsetLeavesRoomForBoth() {
        int port = LocalPorts.freePortWithFreeOffset(10_000);
        assertThat(port + 10_000).isLessThanOrEqualTo(65_535);
        assertThat(LocalPorts.isFree(port)).isTrue();
        assertThat(LocalPorts.isFree(port + 10_000)).isTrue();
    }

    @Test
    void pingIsFalseWhenNothingListens() {
        assertThat(RedisPing.ping(LocalPorts.freePort(), Duration.ofMillis(200))).isFalse();
    }
}
