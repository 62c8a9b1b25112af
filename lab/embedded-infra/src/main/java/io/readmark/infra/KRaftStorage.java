package io.readmark.infra;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Formats a KRaft log directory the way {@code kafka-storage.sh format -t <random-uuid> -c server.properties}
 * does for a combined node with static {@code controller.quorum.voters}; guarantees an already formatted
 * directory is left untouched, so its cluster id and data survive.
 */
final class KRaftStorage {

    private static final Logger log = LoggerFactory.getLogger(KRaftStorage.class);

    private KRaftStorage() {
    }

    static boolean isFormatted(Path logDir) {
        return Files.isRegularFile(logDir.resolve("meta.properties"));
    }

    /**
     * Formats {@code logDir} unless it already holds {@code meta.properties}.
     *
     * <p>We skip instead of relying on {@code --ignore-formatted}: the Formatter verifies the requested
     * cluster id against the existing one, and we do not know (or care about) the old id.
     *
     * @return the cluster id written, or {@code null} if the directory was already formatted
     */
    static String formatIfNeeded(Path logDir, int nodeId, String controllerListenerName) {
        return formatIfNeeded(logDir, nodeId, controllerListenerName, List.of());
    }

    /**
     * {@link #formatIfNeeded(Path, int, String)} also writing SCRAM credentials into the bootstrap metadata, each as
     * {@code --add-scram} takes it ({@code SCRAM-SHA-512=[name=alice,password=secret]}).
     */
    static String formatIfNeeded(Path logDir, int nodeId, String controllerListenerName, List<String> scramCredentials) {
        return formatIfNeeded(logDir, nodeId, controllerListenerName, scramCredentials, Uuid.randomUuid().toString());
    }

    /** As above with the cluster id given: every node of a multi-node cluster is formatted with the same one. */
    static String formatIfNeeded(Path logDir, int nodeId, String controllerListenerName, List<String> scramCredentials,
                                 String clusterId) {
        if (isFormatted(logDir)) {
            log.debug("KRaft log dir {} is already formatted; reusing it", logDir);
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintStream printStream = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            new Formatter()
                    .setPrintStream(printStream)
                    .setNodeId(nodeId)
                    .setClusterId(clusterId)
                    // Same default as the CLI without --release-version: the newest production metadata.version.
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setControllerListenerName(controllerListenerName)
                    // Static voters (controller.quorum.voters) => kraft.version 0 and no voter snapshot is written,
                    // so a reused directory does not pin the controller port of an earlier run.
                    .setHasDynamicQuorum(false)
                    .setMetadataLogDirectory(logDir.toString())
                    .setScramArguments(scramCredentials)
                    .addDirectory(logDir.toString())
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("Could not format KRaft log dir " + logDir + ": " + e.getMessage()
                    + System.lineSeparator() + out.toString(StandardCharsets.UTF_8), e);
        }
        log.debug("Formatted {} with cluster id {}: {}", logDir, clusterId, out.toString(StandardCharsets.UTF_8).strip());
        return clusterId;
    }
}
