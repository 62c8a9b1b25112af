package io.readmark.common.http;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The open connections of each client, so that one client cannot take every connection of a server: a client
 * is an IPv4 address or an IPv6 /64 (what one host gets, and can pick addresses from at will). A connection is
 * admitted while its client has fewer than {@link HttpLimits#maxConnectionsPerClient} open, and counts until it
 * closes. Only clients with an open connection are held, so at most as many as the server has connections.
 */
final class ClientConnections {

    private final int perClient;
    private final ConcurrentHashMap<InetAddress, AtomicInteger> open = new ConcurrentHashMap<>();

    /** @param perClient connections one client may have open; 0 for no limit */
    ClientConnections(int perClient) {
        this.perClient = perClient;
    }

    /**
     * Counts a connection of {@code client} if it is under the limit; a connection without an IP address (none
     * has one on an IP socket) counts nowhere.
     *
     * @return whether the connection is admitted; if so, {@link #release} it when it closes
     */
    boolean admit(InetAddress client) {
        if (perClient == 0 || client == null) return true;
        boolean[] admitted = {false};
        open.compute(client, (key, count) -> {
            AtomicInteger held = count == null ? new AtomicInteger() : count;
            if (held.get() < perClient) {
                held.incrementAndGet();
                admitted[0] = true;
            }
            return held.get() == 0 ? null : held;
        });
        return admitted[0];
    }

    /** A connection {@link #admit admitted} for {@code client} has closed. */
    void release(InetAddress client) {
        if (perClient == 0 || client == null) return;
        open.computeIfPresent(client, (key, count) -> count.decrementAndGet() == 0 ? null : count);
    }

    /** Clients with a connection open (for tests: the map must not outgrow the connections). */
    int clients() {
        return open.size();
    }

    /** The address a limit applies to: an IPv4 address, or an IPv6 address's /64; null when not an IP address. */
    static InetAddress clientOf(SocketAddress remote) {
        if (!(remote instanceof InetSocketAddress socket) || socket.getAddress() == null) return null;
        InetAddress address = socket.getAddress();
        if (!(address instanceof Inet6Address)) return address;
        byte[] prefix = Arrays.copyOf(address.getAddress(), 16);
        Arrays.fill(prefix, 8, 16, (byte) 0);
        try {
            return InetAddress.getByAddress(prefix);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("16 bytes are an IPv6 address", e);
        }
    }
}
