package io.readmark.common.http;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import static org.assertj.core.api.Assertions.assertThat;

class ClientConnectionsTest {

    @Test
    void aClientIsAdmittedUpToItsLimitAndAgainOnceOneOfItsConnectionsCloses() throws Exception {
        // Given
        ClientConnections connections = new ClientConnections(2);
        InetAddress client = client("203.0.113.7");

        // When / Then
        assertThat(connections.admit(client)).isTrue();
        assertThat(connections.admit(client)).isTrue();
        assertThat(connections.admit(client)).as("past the limit").isFalse();
        assertThat(connections.admit(client("203.0.113.8"))).as("another address").isTrue();
        connections.release(client);
        assertThat(connections.admit(client)).isTrue();
    }

    @Test
    void anIpv6ClientIsItsSlash64() throws Exception {
        // Given
        ClientConnections connections = new ClientConnections(1);

        // When / Then: one host picks addresses from its /64 at will
        assertThat(connections.admit(client("2001:db8:1:2::1"))).isTrue();
        assertThat(connections.admit(client("2001:db8:1:2:ffff:ffff:ffff:ffff"))).as("the same /64").isFalse();
        assertThat(connections.admit(client("2001:db8:1:3::1"))).as("another /64").isTrue();
    }

    @Test
    void clientsAreForgottenWhenTheirLastConnectionCloses() throws Exception {
        // Given
        ClientConnections connections = new ClientConnections(4);
        InetAddress client = client("198.51.100.1");
        connections.admit(client);
        connections.admit(client);
        connections.admit(client("198.51.100.2"));

        // When
        connections.release(client);
        connections.release(client);
        connections.release(client("198.51.100.2"));

        // Then
        assertThat(connections.clients()).isZero();
    }

    @Test
    void zeroIsNoLimit() throws Exception {
        // Given
        ClientConnections connections = new ClientConnections(0);
        InetAddress client = client("192.0.2.1");

        // When / Then
        for (int i = 0; i < 1_000; i++) assertThat(connections.admit(client)).isTrue();
        assertThat(connections.clients()).isZero();
    }

    private static InetAddress client(String address) throws UnknownHostException {
        return ClientConnections.clientOf(new InetSocketAddress(InetAddress.getByName(address), 40_000));
    }
}
