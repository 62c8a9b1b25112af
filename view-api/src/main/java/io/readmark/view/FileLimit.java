package io.readmark.view;

import io.readmark.common.http.HttpLimits;
import io.readmark.view.push.StreamSettings;

import com.sun.management.UnixOperatingSystemMXBean;

import java.lang.management.ManagementFactory;
import java.util.OptionalLong;

/**
 * The view API's bounds against its process's file limit. Streams and other connections are bounded apart, and each
 * holds a file descriptor: with fewer descriptors than both bounds allow, accepting fails with EMFILE before the
 * bounds can answer their clean {@code 503}s, so a process whose limit cannot hold them does not start.
 */
final class FileLimit {

    /** Descriptors besides clients' connections: Redis connections, the JVM's jars and files, the event loops'. */
    static final int MARGIN = 256;

    private FileLimit() {
    }

    /** Refuses to start when this process's file limit, where the platform reports one, is below the bounds. */
    static void check(ViewApiConfig config) {
        check(config.streams().maxStreams(), config.http().maxConnections(), processLimit());
    }

    /** @throws IllegalStateException if {@code limit} holds fewer descriptors than the bounds and the margin need */
    static void check(int maxStreams, int maxConnections, OptionalLong limit) {
        long needed = (long) maxStreams + maxConnections + MARGIN;
        if (limit.isPresent() && limit.getAsLong() < needed) {
            throw new IllegalStateException(String.format("view-api: %s (%d) + %s (%d) + %d for Redis and files need %d"
                            + " file descriptors, above this process's limit of %d: raise the limit (ulimit -n, compose"
                            + " ulimits nofile) or lower the settings", StreamSettings.MAX_STREAMS, maxStreams,
                    HttpLimits.MAX_CONNECTIONS, maxConnections, MARGIN, needed, limit.getAsLong()));
        }
    }

    private static OptionalLong processLimit() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                ? OptionalLong.of(unix.getMaxFileDescriptorCount())
                : OptionalLong.empty();
    }
}
